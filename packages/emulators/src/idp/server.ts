// A small OpenID provider and OAuth 2.1 authorization server, standing in for a customer's identity
// provider: ID tokens for the lab data platform's OpenID Connect method, and the authorization server
// MCP clients sign in with (authorization code with PKCE, client ID metadata documents or dynamic
// registration, JWT access tokens for one resource, rotating refresh tokens, revocation). Its people
// pick themselves on a sign-in page; tests approve without a browser through `admin.autoApprove`.

import { randomBytes } from "node:crypto";
import { rootCertificates } from "node:tls";
import { Clock } from "../common/clock.js";
import { FaultPlan } from "../common/faults.js";
import { startHttpsServer } from "../common/https-server.js";
import { FormTickets } from "../common/oauth/form-tickets.js";
import { RequestLog } from "../common/request-log.js";
import { requestPipeline } from "../common/request-pipeline.js";
import { emptyResponse, type HttpResponse, jsonResponse, withHeaders } from "../common/response.js";
import { matchRoute } from "../common/routes.js";
import type { CertificateAuthority } from "../common/tls.js";
import { adminRoutes, createAdmin, type IdentityProviderAdmin } from "./admin.js";
import { type MintIdTokenOptions, mintIdToken } from "./id-tokens.js";
import { SigningKeys } from "./keys.js";
import { AutoApprovals } from "./oauth/auto-approvals.js";
import { Clients } from "./oauth/clients.js";
import type { AuthorizationServerContext } from "./oauth/context.js";
import { Grants } from "./oauth/grants.js";
import { AUTHORIZE_PATH, DISCOVERY_PATH, JWKS_PATH, OAUTH_METADATA_PATH } from "./oauth/metadata.js";
import { PUBLIC_ROUTES, type PublicRequest } from "./oauth/routes.js";
import { DEMO_PEOPLE, People, type Person } from "./people.js";

export const DEFAULT_SCOPES = ["mcp", "openid", "email", "profile", "offline_access"] as const;

export interface IdentityProviderOptions {
  ca: CertificateAuthority;
  port?: number;
  host?: string;
  /** Default: random. */
  adminSecret?: string;
  /** Share the platform emulator's clock so minted times agree with its checks; default: a new one. */
  clock?: Clock;
  /** Who can sign in; default DEMO_PEOPLE (the lab data demo's users). */
  people?: readonly Person[];
  /** Access token lifetime; default 600 (10 minutes). */
  accessTokenLifetimeSec?: number;
  /** Authorization code lifetime; default 60. */
  codeLifetimeSec?: number;
  /** Refresh token lifetime; default 86400 (a day). */
  refreshTokenLifetimeSec?: number;
  /** scopes_supported; default DEFAULT_SCOPES. */
  scopes?: readonly string[];
  /** Granted when a request names no scope; default "mcp". */
  defaultScope?: string;
  /** The token audience when an authorization request names no `resource`; default none: it is required. */
  defaultResource?: string;
  /** CAs trusted when fetching client metadata documents, besides `ca` and the system's. */
  trustedCaPems?: string[];
}

export interface IdentityProvider {
  /** e.g. "https://127.0.0.1:9443": the iss of its tokens, and what authorization_servers names. */
  issuer: string;
  /** `${issuer}/.well-known/openid-configuration`: what the platform tenant is configured with. */
  configurationUrl: string;
  /** `${issuer}/.well-known/oauth-authorization-server` (RFC 8414). */
  metadataUrl: string;
  jwksUri: string;
  caPem: string;
  adminSecret: string;
  mintIdToken(options: MintIdTokenOptions): Promise<string>;
  /** Publishes a new signing key and signs with it from now on; the previous key stays published. */
  rotateKeys(): Promise<void>;
  /** The test hooks of the authorization server. */
  admin: IdentityProviderAdmin;
  clock: Clock;
  faults: FaultPlan;
  /** Public requests served (admin requests are not logged). */
  requests: RequestLog;
  close(): Promise<void>;
}

// Browser-based MCP clients (an inspector in a web page) read the metadata and call /register, /token
// and /revoke from another origin; they send no cookies, so any origin may. The sign-in page is not
// for scripts, and keeps its own headers.
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST",
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
  "access-control-max-age": "600",
};

async function answerPublicRequest(request: PublicRequest): Promise<HttpResponse> {
  if (request.url.pathname === AUTHORIZE_PATH) return answerRoute(request);
  if (request.req.method === "OPTIONS") return emptyResponse(204, CORS);
  return withHeaders(await answerRoute(request), CORS);
}

function answerRoute(request: PublicRequest): Promise<HttpResponse> | HttpResponse {
  const method = request.req.method ?? "GET";
  const found = matchRoute(PUBLIC_ROUTES, method, request.url.pathname, { headAsGet: true });
  switch (found.kind) {
    case "found":
      return found.route.handle(request, found.params);
    case "wrong-method":
      return jsonResponse(405, { error: "method_not_allowed" }, { allow: found.allow });
    case "no-route":
      return jsonResponse(404, { error: "not_found" });
  }
}

export async function startIdentityProvider(options: IdentityProviderOptions): Promise<IdentityProvider> {
  const keys = await SigningKeys.create();
  const clock = options.clock ?? new Clock();
  const faults = new FaultPlan();
  const requests = new RequestLog();
  const adminSecret = options.adminSecret ?? `idpadm_${randomBytes(24).toString("base64url")}`;
  let issuer: string | undefined;
  const ctx: AuthorizationServerContext = {
    issuer: () => {
      if (issuer === undefined) throw new Error("identity provider not started");
      return issuer;
    },
    keys,
    clock,
    people: new People(options.people ?? DEMO_PEOPLE),
    clients: new Clients(clock, [...(options.trustedCaPems ?? []), options.ca.certPem, ...rootCertificates]),
    grants: new Grants(clock),
    approvals: new AutoApprovals(),
    tickets: new FormTickets(clock),
    settings: {
      accessTokenLifetimeSec: options.accessTokenLifetimeSec ?? 600,
      emailClaims: { accessToken: true, idToken: true },
      codeLifetimeSec: options.codeLifetimeSec ?? 60,
      refreshTokenLifetimeSec: options.refreshTokenLifetimeSec ?? 86_400,
      scopes: options.scopes ?? DEFAULT_SCOPES,
      defaultScope: options.defaultScope ?? "mcp",
      defaultResource: options.defaultResource,
    },
  };
  const admin = createAdmin(ctx);
  const mint = (mintOptions: MintIdTokenOptions) => mintIdToken(keys, clock, ctx.issuer(), mintOptions);
  const rotateKeys = () => keys.rotate();

  const server = await startHttpsServer({
    host: options.host,
    port: options.port,
    ca: options.ca,
    handler: requestPipeline({
      admin: { adminSecret, faults, requests, clock },
      adminRoutes: adminRoutes(admin, { mint, rotateKeys }, ctx),
      answer: (req, url) => answerPublicRequest({ req, url, ctx }),
    }),
  });
  issuer = server.url;

  return {
    issuer,
    configurationUrl: `${issuer}${DISCOVERY_PATH}`,
    metadataUrl: `${issuer}${OAUTH_METADATA_PATH}`,
    jwksUri: `${issuer}${JWKS_PATH}`,
    caPem: options.ca.certPem,
    adminSecret,
    mintIdToken: mint,
    rotateKeys,
    admin,
    clock,
    faults,
    requests,
    close: server.close,
  };
}
