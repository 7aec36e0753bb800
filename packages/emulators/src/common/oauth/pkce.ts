// PKCE with S256 only (RFC 7636): the challenge a client sends to /authorize is a base64url SHA-256
// digest (43 characters), and the verifier it later sends to the token endpoint must hash to it. "plain"
// is refused by both servers: it gives no protection against a code stolen on the way back.
import { createHash } from "node:crypto";
import { secretsEqual } from "../http.js";

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** Whether `challenge` has the shape of an S256 challenge. */
export function isS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

/** Whether `verifier` hashes (SHA-256, base64url) to `challenge`, compared in constant time. */
export function verifierMatches(verifier: string, challenge: string): boolean {
  const computed = createHash("sha256").update(verifier, "ascii").digest("base64url");
  return secretsEqual(computed, challenge);
}
