// A small OpenID provider for the OpenID Connect method of the lab data platform: the discovery
// document, the JWKS, and ID tokens minted on request (in process, or over its admin API for the bin
// and the sandbox). It has no login pages: it stands in for a customer's identity provider.

import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { AdminRoutes } from "../common/admin.js";
import { Clock } from "../common/clock.js";
import { FaultPlan } from "../common/faults.js";
import { frontDoor } from "../common/front-door.js";
import { sendJson } from "../common/http.js";
import { startHttpsServer } from "../common/https-server.js";
import { readJsonBody } from "../common/json-body.js";
import { RequestLog } from "../common/request-log.js";
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
  return async (route, method, req, res) => {
    if (route === "/id-tokens" && method === "POST") {
      const body = await readJsonBody(req, mintSchema);
      if (!body.ok) {
        sendJson(res, body.status, { error: "invalid_request", message: body.message });
        return true;
      }
      const { notBefore, ...rest } = body.value;
      const idToken = await idp().mintIdToken({
        ...rest,
        notBefore: notBefore ? new Date(notBefore) : undefined,
      });
      sendJson(res, 201, { id_token: idToken, expires_in: rest.expiresInSec ?? 3600 });
      return true;
    }
    if (route === "/rotate-keys" && method === "POST") {
      await idp().rotateKeys();
      sendJson(res, 200, { rotated: true });
      return true;
    }
    if (route === "/id-tokens" || route === "/rotate-keys") {
      sendJson(res, 405, { error: "method_not_allowed", message: "Use POST" }, { allow: "POST" });
      return true;
    }
    return false;
  };
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

  const server = await startHttpsServer({
    host: options.host,
    port: options.port,
    ca: options.ca,
    handler: frontDoor({
      admin: { adminSecret, faults, requests, clock },
      adminRoutes: ownRoutes,
      serve: (req, res, url) => {
        if (req.method !== "GET")
          return sendJson(res, 405, { error: "method_not_allowed" }, { allow: "GET" });
        const { issuer, jwksUri } = current();
        if (url.pathname === DISCOVERY_PATH) {
          return sendJson(res, 200, {
            issuer,
            jwks_uri: jwksUri,
            response_types_supported: ["id_token"],
            subject_types_supported: ["public"],
            id_token_signing_alg_values_supported: [ALG],
            claims_supported: ["iss", "sub", "aud", "exp", "iat", "nbf", "email", "email_verified", "name"],
          });
        }
        if (url.pathname === JWKS_PATH) return sendJson(res, 200, keys.jwks());
        sendJson(res, 404, { error: "not_found" });
      },
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
