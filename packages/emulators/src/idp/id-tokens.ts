// Minting ID tokens as a customer's identity provider issues them: iss, sub, aud, email, iat, exp
// (and nbf when asked), signed RS256 with the current key.
import { SignJWT } from "jose";
import type { Clock } from "../common/clock.js";
import { ALG, type SigningKeys } from "./keys.js";
import { subjectOf } from "./people.js";

export interface MintIdTokenOptions {
  email: string;
  audience: string;
  /** Lifetime from now by the provider's clock; default 3600. May be negative for an expired token. */
  expiresInSec?: number;
  /** Sets nbf: the token is not valid before this time. */
  notBefore?: Date;
  /** Overrides iss, e.g. to test a token from the wrong issuer. */
  issuer?: string;
  /** Signs with an unpublished key under the current key id: a token with a wrong signature. */
  signWithForeignKey?: boolean;
  /** Default: derived from the email, stable. */
  subject?: string;
  name?: string;
  /** Echoes the authorization request's nonce (OpenID Connect Core section 3.1.2.1). */
  nonce?: string;
  /** Leaves out email and email_verified (a provider that gives none): `sub` names the person alone. */
  omitEmail?: boolean;
}

export async function mintIdToken(
  keys: SigningKeys,
  clock: Clock,
  issuer: string,
  options: MintIdTokenOptions,
): Promise<string> {
  const now = Math.floor(clock.now() / 1000);
  const subject = options.subject ?? subjectOf(options.email);
  const claims: Record<string, unknown> = options.omitEmail
    ? {}
    : { email: options.email, email_verified: true };
  if (options.name !== undefined) claims.name = options.name;
  if (options.nonce !== undefined) claims.nonce = options.nonce;
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: ALG, kid: keys.current.kid, typ: "JWT" })
    .setIssuer(options.issuer ?? issuer)
    .setSubject(subject)
    .setAudience(options.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresInSec ?? 3600));
  if (options.notBefore) jwt.setNotBefore(Math.floor(options.notBefore.getTime() / 1000));
  return jwt.sign(options.signWithForeignKey ? await keys.foreign() : keys.current.privateKey);
}
