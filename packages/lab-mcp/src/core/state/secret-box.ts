// Secrets at rest in the shared state: AES-256-GCM under a key derived from MCP_STATE_KEY, each value
// bound to the name it is stored under (a value copied to another name does not open), and a keyed
// digest as its version (compare-and-set without the value, and without a hash anyone could test
// guesses against).
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

const FORMAT = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The 32 bytes of MCP_STATE_KEY (64 hex characters, or base64 / base64url); undefined when malformed. */
export function parseStateKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length === 32 ? bytes : undefined;
}

/** A key for one purpose, derived from the state key (HKDF-SHA256), so no two uses share a key. */
export function deriveKey(stateKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", stateKey, Buffer.alloc(0), `lab-mcp ${purpose}`, 32));
}

export class SecretBox {
  private readonly encryptionKey: Buffer;
  private readonly versionKey: Buffer;

  constructor(stateKey: Buffer) {
    this.encryptionKey = deriveKey(stateKey, "secrets");
    this.versionKey = deriveKey(stateKey, "secret versions");
  }

  seal(name: string, value: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.encryptionKey, iv);
    cipher.setAAD(Buffer.from(name));
    const sealed = Buffer.concat([cipher.update(value, "utf8"), cipher.final()]);
    return `${FORMAT}.${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64")}`;
  }

  /** The value, or undefined when it was not sealed under this key for this name (or was altered). */
  open(name: string, sealed: string): string | undefined {
    const [format, body] = sealed.split(".", 2);
    if (format !== FORMAT || !body) return undefined;
    const bytes = Buffer.from(body, "base64");
    if (bytes.length < IV_BYTES + TAG_BYTES) return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.encryptionKey, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(name));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      return undefined;
    }
  }

  version(name: string, value: string): string {
    return createHmac("sha256", this.versionKey)
      .update(name)
      .update("\0")
      .update(value)
      .digest("base64url")
      .slice(0, 22);
  }
}
