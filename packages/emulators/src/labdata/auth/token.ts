// POST /api/v2/token: OAuth 2.0 client credentials (RFC 6749 §4.4). The client authenticates with its
// id and secret in the form body or as HTTP Basic; the answer is an opaque access token that expires
// by the emulator clock. Errors use the OpenAPI document's OAuthBadRequestError (400) and
// OAuthUnauthorizedError (401): {"error": {"message", "type", "userMessage"}} with the RFC 6749 error
// code as the type.
import type { IncomingMessage } from "node:http";
import type { Clock } from "../../common/clock.js";
import { BodyTooLargeError, readBody } from "../../common/http.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import type { TenantState } from "../state/emulator-state.js";
import type { App } from "../state/model.js";
import type { Principal } from "./authenticate.js";
import { CREDENTIAL_PREFIX, hashCredential, matchesHash, newCredential } from "./hashed-secrets.js";

const DAY_MS = 86_400_000;
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

function oauthError(
  status: 400 | 401 | 405 | 413,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): HttpResponse {
  return jsonResponse(
    status,
    { error: { message: description, type: error, userMessage: description } },
    { ...NO_STORE, ...headers },
  );
}

const invalidClient = (description: string): HttpResponse =>
  oauthError(401, "invalid_client", description, { "www-authenticate": 'Basic realm="token"' });

// RFC 6749 §2.3.1: id and secret are form-urlencoded before they go into the Basic header.
function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

type ClientCredentials = { id: string; secret: string } | { problem: HttpResponse };

const problem = (response: HttpResponse): ClientCredentials => ({ problem: response });

function fromBasic(header: string, bodyId: string | null): ClientCredentials {
  const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header);
  const decoded = match ? Buffer.from(match[1] ?? "", "base64").toString("utf8") : "";
  const colon = decoded.indexOf(":");
  const id = colon > 0 ? formDecode(decoded.slice(0, colon)) : undefined;
  const secret = colon > 0 ? formDecode(decoded.slice(colon + 1)) : undefined;
  if (!id || !secret) {
    return problem(
      invalidClient("Badly formatted client authentication: use Basic <base64 of client_id:client_secret>"),
    );
  }
  if (bodyId !== null && bodyId !== id) {
    return problem(oauthError(400, "invalid_request", "client_id in the body differs from the one in Basic"));
  }
  return { id, secret };
}

// RFC 6749 §2.3.1: one method per request, Basic or the form body.
function clientCredentials(req: IncomingMessage, form: URLSearchParams): ClientCredentials {
  const header = req.headers.authorization;
  const bodyId = form.get("client_id");
  const bodySecret = form.get("client_secret");
  if (header !== undefined && bodySecret !== null) {
    return problem(
      oauthError(400, "invalid_request", "Send the client secret in the body or as Basic, not both"),
    );
  }
  if (header !== undefined) return fromBasic(header, bodyId);
  if (!bodyId || !bodySecret) {
    return problem(invalidClient("Client authentication is missing: send client_id and client_secret"));
  }
  return { id: bodyId, secret: bodySecret };
}

function authenticateClient(tenant: TenantState, id: string, secret: string): App | HttpResponse {
  const app = tenant.appsByClientId.get(id);
  // Every secret is compared, so timing does not tell which one nearly matched.
  const matched = app?.secrets.filter((s) => matchesHash(secret, s.hash)).length ?? 0;
  if (!app || matched === 0) return invalidClient("Client authentication failed");
  if (app.status === "archived") return invalidClient("The app is archived");
  return app;
}

export type TokenRequest =
  | { refused: HttpResponse }
  /** The client authenticated: its app's principal (for the limit and the audit log). */
  | { app: App; principal: Principal };

/** Checks the form and authenticates the client; issuing comes after the rate limit let it through. */
export async function readTokenRequest(req: IncomingMessage, tenant: TenantState): Promise<TokenRequest> {
  if (req.method !== "POST")
    return { refused: oauthError(405, "invalid_request", "Use POST", { allow: "POST" }) };
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    return {
      refused: oauthError(400, "invalid_request", "Content-Type must be application/x-www-form-urlencoded"),
    };
  }
  let form: URLSearchParams;
  try {
    form = new URLSearchParams(await readBody(req, 16 * 1024));
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return { refused: oauthError(413, "invalid_request", error.message) };
    throw error;
  }
  const grantType = form.get("grant_type");
  if (!grantType) return { refused: oauthError(400, "invalid_request", "grant_type is required") };
  if (grantType !== "client_credentials") {
    return {
      refused: oauthError(400, "unsupported_grant_type", "Only grant_type=client_credentials is supported"),
    };
  }
  const credentials = clientCredentials(req, form);
  if ("problem" in credentials) return { refused: credentials.problem };
  const app = authenticateClient(tenant, credentials.id, credentials.secret);
  if (!("clientId" in app)) return { refused: app };
  const user = tenant.users.get(app.serviceUserId);
  if (!user) return { refused: invalidClient("The app has no acting user") };
  const principal: Principal = {
    actor: { kind: "app", app, user },
    method: "oauth_client_credentials",
    apiKeyId: null,
    rateKey: `app:${app.id}`,
  };
  return { app, principal };
}

/** A new access token for `app`, valid for the tenant's token lifetime by the emulator clock. */
export function grantAccessToken(tenant: TenantState, app: App, clock: Clock): HttpResponse {
  const now = clock.now();
  tenant.pruneAccessTokens(now - DAY_MS);
  const lifetimeSec = tenant.settings.accessTokenLifetimeSec;
  const accessToken = newCredential(CREDENTIAL_PREFIX.accessToken);
  tenant.accessTokens.set(hashCredential(accessToken), {
    appId: app.id,
    expiresAt: now + lifetimeSec * 1000,
  });
  return jsonResponse(
    200,
    { access_token: accessToken, token_type: "Bearer", expires_in: lifetimeSec },
    NO_STORE,
  );
}
