// Access tokens as JWTs (RFC 9068): signed with the provider's current key (kid in the header, the key
// in the JWKS), for one resource (aud), one person (sub) and one client, short-lived by the provider's
// clock, each with its own jti so it can be listed and revoked.
import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import type { Clock } from "../common/clock.js";
import { ALG, type SigningKeys } from "./keys.js";
import type { Person } from "./people.js";

export interface AccessTokenGrant {
  person: Person;
  clientId: string;
  resource: string;
  scope: string;
  lifetimeSec: number;
  /** Whether the token carries the person's email (many providers' access tokens do not). */
  withEmail: boolean;
}

export interface MintedAccessToken {
  token: string;
  jti: string;
  issuedAt: number;
  expiresAt: number;
}

export async function mintAccessToken(
  keys: SigningKeys,
  clock: Clock,
  issuer: string,
  grant: AccessTokenGrant,
): Promise<MintedAccessToken> {
  const issuedAtSec = Math.floor(clock.now() / 1000);
  const expiresAtSec = issuedAtSec + grant.lifetimeSec;
  const jti = randomUUID();
  const token = await new SignJWT({
    client_id: grant.clientId,
    scope: grant.scope,
    ...(grant.withEmail ? { email: grant.person.email } : {}),
    name: grant.person.name,
  })
    .setProtectedHeader({ alg: ALG, kid: keys.current.kid, typ: "at+jwt" })
    .setIssuer(issuer)
    .setSubject(grant.person.subject)
    .setAudience(grant.resource)
    .setIssuedAt(issuedAtSec)
    .setExpirationTime(expiresAtSec)
    .setJti(jti)
    .sign(keys.current.privateKey);
  return { token, jti, issuedAt: issuedAtSec * 1000, expiresAt: expiresAtSec * 1000 };
}
