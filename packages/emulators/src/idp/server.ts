// A small OpenID provider for the OpenID Connect method of the lab data platform: the discovery
// document, the JWKS, and ID tokens minted on request (in process, or over its admin API for the bin
// and the sandbox). It has no login pages: it stands in for a customer's identity provider.

import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { AdminRoutes } from "../common/admin.js";
import { Clock } from "../common/clock.js";
import { FaultPlan } from "../common/faults.js";
import { startHttpsServer } from "../common/https-server.js";
import { readJsonBody } from "../common/json-body.js";
import { RequestLog } from "../common/request-log.js";
import { requestPipeline } from "../common/request-pipeline.js";
import { type HttpResponse, jsonResponse } from "../common/response.js";
import { matchRoute, type Route, route } from "../common/routes.js";
import type { CertificateAuthority } from "../common/tls.js";
import { type MintIdTokenOptions, mintIdToken } from "./id-tokens.js";
import { ALG, SigningKeys } from "./keys.js";

export const DISCOVERY_PATH = "/.well-known/openid-configuration";
export const JWKS_PATH = "/jwks";

export interface IdentityProviderOptions {
  ca: CertificateAuthority;
  port?: number;
  host?: string;
  /** Default: random. */
  adminSecret?: string;
  /** Share the platform emulator's clock so minted times agree with its checks; default: a new one. */
  clock?: Clock;
}

export interface IdentityProvider {
  /** e.g. "https://127.0.0.1:9443": the iss of its tokens. */
  issuer: string;
  /** `${issuer}/.well-known/openid-configuration`: what the platform tenant is configured with. */
  configurationUrl: string;
  jwksUri: string;
  caPem: string;
  adminSecret: string;
  mintIdToken(options: MintIdTokenOptions): Promise<string>;
  /** Publishes a new signing key and signs with it from now on; the previous key stays published. */
  rotateKeys(): Promise<void>;
  faults: FaultPlan;
  /** Discovery and JWKS requests served (admin requests are not logged). */
  requests: RequestLog;
  close(): Promise<void>;
}

const mintSchema = z
  .object({
    email: z.email(),
    audience: z.string().min(1),
    expiresInSec: z.number().int().min(-86_400).max(86_400).optional(),
    notBefore: z.iso.datetime().optional(),
    name: z.string().max(200).optional(),
  })
  .strict();

function adminRoutes(idp: () => IdentityProvider): AdminRoutes {
  return [
    route("POST", "/id-tokens", async ({ req }) => {
      const body = await readJsonBody(req, mintSchema);
      if (!body.ok) return jsonResponse(body.status, { error: "invalid_request", message: body.message });
      const { notBefore, ...rest } = body.value;
      const idToken = await idp().mintIdToken({
        ...rest,
        notBefore: notBefore ? new Date(notBefore) : undefined,
      });
      return jsonResponse(201, { id_token: idToken, expires_in: rest.expiresInSec ?? 3600 });
    }),
    route("POST", "/rotate-keys", async () => {
      await idp().rotateKeys();
      return jsonResponse(200, { rotated: true });
    }),
  ];
}

/** The public side: the discovery document and the keys (any other method is refused on any path). */
function publicRoutes(idp: () => IdentityProvider, keys: SigningKeys): readonly Route<void>[] {
  return [
    route("GET", DISCOVERY_PATH, () => {
      const { issuer, jwksUri } = idp();
      return jsonResponse(200, {
        issuer,
        jwks_uri: jwksUri,
        response_types_supported: ["id_token"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: [ALG],
        claims_supported: ["iss", "sub", "aud", "exp", "iat", "nbf", "email", "email_verified", "name"],
      });
    }),
    route("GET", JWKS_PATH, () => jsonResponse(200, keys.jwks())),
  ];
}

function answerPublicRequest(
  routes: readonly Route<void>[],
  method: string,
  path: string,
): Promise<HttpResponse> | HttpResponse {
  if (method !== "GET") return jsonResponse(405, { error: "method_not_allowed" }, { allow: "GET" });
  const found = matchRoute(routes, method, path);
  if (found.kind !== "found") return jsonResponse(404, { error: "not_found" });
  return found.route.handle(undefined, found.params);
}

export async function startIdentityProvider(options: IdentityProviderOptions): Promise<IdentityProvider> {
  const keys = await SigningKeys.create();
  const clock = options.clock ?? new Clock();
  const faults = new FaultPlan();
  const requests = new RequestLog();
  const adminSecret = options.adminSecret ?? `idpadm_${randomBytes(24).toString("base64url")}`;
  let provider: IdentityProvider | undefined;
  const current = (): IdentityProvider => {
    if (!provider) throw new Error("identity provider not started");
    return provider;
  };
  const ownRoutes = adminRoutes(current);
  const servedRoutes = publicRoutes(current, keys);

  const server = await startHttpsServer({
    host: options.host,
    port: options.port,
    ca: options.ca,
    handler: requestPipeline({
      admin: { adminSecret, faults, requests, clock },
      adminRoutes: ownRoutes,
      answer: (req, url) => answerPublicRequest(servedRoutes, req.method ?? "GET", url.pathname),
    }),
  });

  const issuer = server.url;
  provider = {
    issuer,
    configurationUrl: `${issuer}${DISCOVERY_PATH}`,
    jwksUri: `${issuer}${JWKS_PATH}`,
    caPem: options.ca.certPem,
    adminSecret,
    mintIdToken: (mint) => mintIdToken(keys, clock, issuer, mint),
    rotateKeys: () => keys.rotate(),
    faults,
    requests,
    close: server.close,
  };
  return provider;
}
