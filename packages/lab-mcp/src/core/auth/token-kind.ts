// Whether a verified JWT is an access token for this server, beyond signature, issuer, audience and
// expiry: an ID token (or any other token the issuer signs) must never open a session.
// "The issuer marks them" (RFC 9068 §2.1): a `typ` header of at+jwt / application/at+jwt marks an
// access token. Keycloak, Entra ID and Okta still put the generic "JWT" (or nothing) on theirs, so those
// are taken as unmarked and must then pass the ID-token tests; any other `typ` (an ID token's "id+jwt",
// a logout or DPoP proof, ...) is refused. An ID token is known by what only ID tokens carry: `nonce`,
// `at_hash` or `c_hash` (OpenID Connect Core §2, §3.3.2.11), Keycloak's `typ` claim "ID", or an audience
// naming the client it was issued to (`azp`), which an access token names as its holder, not its audience.
import type { JWTHeaderParameters, JWTPayload } from "jose";

const ACCESS_TOKEN_TYPES = new Set(["at+jwt", "application/at+jwt"]);
const UNMARKED_TYPES = new Set(["jwt", "application/jwt"]);

/** Why the token is not an access token (a short code for the 401), or undefined when it is one. */
export function accessTokenRefusal(header: JWTHeaderParameters, payload: JWTPayload): string | undefined {
  if (typeof payload.sub !== "string" || payload.sub.trim() === "") return "no subject";
  const typ = header.typ?.toLowerCase();
  if (typ !== undefined && !ACCESS_TOKEN_TYPES.has(typ) && !UNMARKED_TYPES.has(typ)) {
    return "not an access token";
  }
  if ("nonce" in payload || "at_hash" in payload || "c_hash" in payload) return "an ID token";
  if (payload.typ === "ID") return "an ID token";
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (typeof payload.azp === "string" && audiences.includes(payload.azp)) return "an ID token";
  return undefined;
}
