// The three ways a caller proves who it is, turned into a principal, or a 401 that says what was wrong
// without repeating the credential: API key as Basic username (empty password), OAuth access token
// as Bearer, OpenID Connect ID token (a JWT) as Bearer.
import type { IncomingMessage } from "node:http";
import type { Clock } from "../../common/clock.js";
import { unauthorized } from "../api/errors.js";
import type { AuthMethod } from "../state/audit-log.js";
import type { TenantState } from "../state/emulator-state.js";
import type { User } from "../state/model.js";
import { hashCredential } from "./hashed-secrets.js";
import { IdTokenRejected, type OidcVerifier } from "./oidc.js";
import type { Actor } from "./permissions.js";

export interface Principal {
  actor: Actor;
  method: AuthMethod;
  apiKeyId: string | null;
  /** Whose rate window the request counts in: "user:<id>" or "app:<id>". */
  rateKey: string;
}

const HEADER = /^([A-Za-z]+) +(\S+) *$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

const BAD_FORMAT =
  "Badly formatted Authorization header: use 'Basic <base64 of API_KEY:>' or 'Bearer <token>'";

// A suspended user has no API access by any method; the credential stays but no longer authenticates.
function activeUser(user: User | undefined, what: string): User {
  if (!user) throw unauthorized(`The ${what} belongs to no user`);
  if (user.status === "suspended") throw unauthorized(`The ${what} belongs to a suspended user`);
  return user;
}

function fromApiKey(tenant: TenantState, encoded: string): Principal {
  const decoded = BASE64.test(encoded) ? Buffer.from(encoded, "base64").toString("utf8") : "";
  const colon = decoded.indexOf(":");
  if (colon < 0) throw unauthorized(BAD_FORMAT);
  if (colon === 0)
    throw unauthorized("Badly formatted API key credentials: the API key (Basic username) is empty");
  if (colon < decoded.length - 1) {
    throw unauthorized("Badly formatted API key credentials: the password must be empty (send API_KEY: )");
  }
  const key = tenant.apiKeysByHash.get(hashCredential(decoded.slice(0, colon)));
  if (!key) throw unauthorized("Invalid API key");
  const user = activeUser(tenant.users.get(key.userId), "API key");
  return { actor: { kind: "user", user }, method: "api_key", apiKeyId: key.id, rateKey: `user:${user.id}` };
}

function fromAccessToken(tenant: TenantState, token: string, now: number): Principal {
  const record = tenant.accessTokens.get(hashCredential(token));
  if (!record) throw unauthorized("Invalid access token");
  if (record.expiresAt <= now)
    throw unauthorized("Access token has expired: request a new one from the token endpoint");
  const app = tenant.apps.get(record.appId);
  if (!app || app.status === "archived") throw unauthorized("The access token's app is archived");
  const user = tenant.users.get(app.serviceUserId);
  if (!user) throw unauthorized("The access token's app has no acting user");
  return {
    actor: { kind: "app", app, user },
    method: "oauth_client_credentials",
    apiKeyId: null,
    rateKey: `app:${app.id}`,
  };
}

async function fromIdToken(tenant: TenantState, token: string, oidc: OidcVerifier): Promise<Principal> {
  const setting = tenant.settings.oidc;
  if (!setting) throw unauthorized("OpenID Connect is not set up for this tenant");
  let email: string;
  try {
    ({ email } = await oidc.verify(token, setting));
  } catch (error) {
    if (error instanceof IdTokenRejected) throw unauthorized(error.message);
    throw error;
  }
  const wanted = email.toLowerCase();
  const match = [...tenant.users.values()].find(
    (u) => u.kind === "person" && u.email.toLowerCase() === wanted,
  );
  if (!match) throw unauthorized("No user of this tenant has the ID token's email");
  const user = activeUser(match, "ID token");
  return { actor: { kind: "user", user }, method: "oidc", apiKeyId: null, rateKey: `user:${user.id}` };
}

export async function authenticate(
  req: IncomingMessage,
  tenant: TenantState,
  clock: Clock,
  oidc: OidcVerifier,
): Promise<Principal> {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === "") throw unauthorized("Missing Authorization header");
  const match = HEADER.exec(header);
  if (!match) throw unauthorized(BAD_FORMAT);
  const scheme = (match[1] ?? "").toLowerCase();
  const value = match[2] ?? "";
  if (scheme === "basic") return fromApiKey(tenant, value);
  if (scheme !== "bearer") throw unauthorized(BAD_FORMAT);
  return JWT_SHAPE.test(value)
    ? fromIdToken(tenant, value, oidc)
    : fromAccessToken(tenant, value, clock.now());
}
