// Whether a verified JWT is an access token for this server, beyond signature, issuer, audience and
// expiry: an ID token (or any other token the issuer signs) must never open a session.
// "The issuer marks them" (RFC 9068 §2.1): a `typ` header of at+jwt / application/at+jwt marks an
// access token. Keycloak, Entra ID and Okta still put the generic "JWT" (or nothing) on theirs, so those
// are taken as unmarked and must then pass the ID-token tests; any other `typ` (an ID token's "id+jwt",
// a logout or DPoP proof, ...) is refused. An ID token is known by what only ID tokens carry: `nonce`,
// `at_hash` or `c_hash` (OpenID Connect Core §2, §3.3.2.11), Keycloak's `typ` claim "ID", or an audience
// naming the client it was issued to (`azp`), which an access token names as its holder, not its audience.
// An unmarked token must also have an access token's shape: the client it was issued to or the access
// it grants (`client_id` of RFC 9068, `azp`, Okta's `cid`, Entra's `appid`, `scope`, `scp`, `roles`),
// which every one of those providers puts in its access tokens and none in its ID tokens; an ID token
// exchanged for this server's audience (RFC 8693 requested_token_type id_token) carries none of them.
import type { JWTHeaderParameters, JWTPayload } from "jose";

const ACCESS_TOKEN_TYPES = new Set(["at+jwt", "application/at+jwt"]);
const UNMARKED_TYPES = new Set(["jwt", "application/jwt"]);
/** What only an access token names: its client, or the access it grants. */
const ACCESS_CLAIMS = ["client_id", "azp", "cid", "appid", "scope", "scp", "roles"] as const;

/** Why the token is not an access token (a short code for the 401), or undefined when it is one. */
export function accessTokenRefusal(header: JWTHeaderParameters, payload: JWTPayload): string | undefined {
  if (typeof payload.sub !== "string" || payload.sub.trim() === "") return "no subject";
  const typ = header.typ?.toLowerCase();
  if (typ !== undefined && !ACCESS_TOKEN_TYPES.has(typ) && !UNMARKED_TYPES.has(typ)) {
    return "not an access token";
  }
  const marked = typ !== undefined && ACCESS_TOKEN_TYPES.has(typ);
  if (!marked && !ACCESS_CLAIMS.some((claim) => payload[claim] !== undefined)) return "not an access token";
  if ("nonce" in payload || "at_hash" in payload || "c_hash" in payload) return "an ID token";
  if (payload.typ === "ID") return "an ID token";
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (typeof payload.azp === "string" && audiences.includes(payload.azp)) return "an ID token";
  return undefined;
}
