// Names in the shared state derived from a person: an HMAC of their subject under a key derived from
// MCP_STATE_KEY, so that whoever can list Redis's keys cannot test candidate subjects against them (an
// unkeyed digest of "<issuer> <sub>" can be computed by anyone who guesses the subject).
import { createHmac, randomBytes } from "node:crypto";
import { deriveKey } from "./secret-box.js";

/**
 * The key naming people for one purpose: derived from MCP_STATE_KEY, so every replica (and the admin
 * commands) names a person alike; without one the state is this process's own memory, and a random
 * key names it as well.
 */
export function personNamesKey(stateKey: Buffer | undefined, purpose: string): Buffer {
  return stateKey ? deriveKey(stateKey, purpose) : randomBytes(32);
}

/** A person's name under `key`: 32 hex characters, never the subject itself. */
export function keyedPersonName(key: Buffer, subject: string): string {
  return createHmac("sha256", key).update(subject).digest("hex").slice(0, 32);
}
