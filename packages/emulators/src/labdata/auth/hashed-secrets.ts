// Credentials are random (node:crypto), handed out once and kept only as SHA-256 hashes, so neither a
// state dump nor the admin API can ever show one again.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";

export const CREDENTIAL_PREFIX = {
  apiKey: "sk_",
  clientSecret: "cs_",
  accessToken: "at_",
} as const;

/** A prefix and 32 random bytes in base64url: no ":" (Basic), no "." (never mistaken for a JWT). */
export function newCredential(prefix: string): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

export function newClientId(): string {
  return randomUUID();
}

export function hashCredential(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function matchesHash(secret: string, hash: string): boolean {
  return timingSafeEqual(Buffer.from(hashCredential(secret), "hex"), Buffer.from(hash, "hex"));
}
