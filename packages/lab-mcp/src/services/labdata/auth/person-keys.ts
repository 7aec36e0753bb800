// Each signed-in person's own API key of the lab data platform, in the shared state (sealed with
// MCP_STATE_KEY in Redis, so every replica reads it): one secret per person and platform, named by the
// platform's base URL and a keyed digest of the person's subject, so that a key name in Redis neither
// shows who it belongs to nor can be matched against a list of subjects without MCP_STATE_KEY.
import { createHmac, randomBytes } from "node:crypto";
import { z } from "zod";
import { deriveKey } from "../../../core/state/secret-box.js";
import type { SecretStore } from "../../../core/state/shared-state.js";

const storedSchema = z.object({ apiKey: z.string().min(1) });

/** A person's stored key, with the version a removal compares against. */
export interface StoredPersonKey {
  apiKey: string;
  version: string;
}

/**
 * The key that names people's secrets: derived from MCP_STATE_KEY, so every replica (and the
 * `forget` command) names a person alike; without one the state is this process's own memory, and a
 * random key names it as well.
 */
export function personNameKey(stateKey: Buffer | undefined): Buffer {
  return stateKey ? deriveKey(stateKey, "labdata person key names") : randomBytes(32);
}

export class PersonKeys {
  constructor(
    private readonly secrets: SecretStore,
    private readonly baseUrl: string,
    private readonly nameKey: Buffer,
  ) {}

  async read(subject: string): Promise<StoredPersonKey | undefined> {
    const stored = await this.secrets.read(this.nameOf(subject));
    if (!stored) return undefined;
    const parsed = storedSchema.safeParse(safeJson(stored.value));
    return parsed.success ? { apiKey: parsed.data.apiKey, version: stored.version } : undefined;
  }

  /** Kept until the person signs out, an admin forgets them, or the platform refuses the key. */
  async store(subject: string, apiKey: string): Promise<void> {
    await this.secrets.write(this.nameOf(subject), JSON.stringify({ apiKey }));
  }

  /**
   * Deletes the person's key (only the one at `ifVersion` when given); false when there was none.
   * Without `ifVersion` (a sign-out, `forget`) it throws when the shared state cannot confirm it.
   */
  remove(subject: string, ifVersion?: string): Promise<boolean> {
    const name = this.nameOf(subject);
    return ifVersion === undefined
      ? this.secrets.removeConfirmed(name)
      : this.secrets.remove(name, ifVersion);
  }

  /** The secret's name: the platform, and an HMAC of the subject (never the subject itself). */
  nameOf(subject: string): string {
    return `labdata:person-key:${this.baseUrl}:${this.digestOf(subject)}`;
  }

  /** The person's keyed digest, for any other name derived from them (their exchanged platform token and its budget). */
  digestOf(subject: string): string {
    return createHmac("sha256", this.nameKey).update(subject).digest("hex").slice(0, 32);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
