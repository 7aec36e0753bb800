// Where an OAuth sign-in is kept between runs: one JSON file in the user's config folder (or
// PROTOCOLS_TOKEN_FILE), mode 0600, replaced atomically. The file names the repository and the
// application it belongs to, so that tokens never go to another one.
import { z } from "zod";
import { readJsonIfPresent, removeFile, writePrivateJson } from "../../../core/start/user-config.js";
import type { TokenResponse } from "../records/token-response.js";

export interface StoredTokens {
  access_token: string;
  refresh_token: string;
  /** Unix seconds. */
  expires_at: number;
  base_url: string;
  client_id: string;
}

const storedSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expires_at: z.number(),
  base_url: z.string(),
  client_id: z.string(),
});

export type StoredRead =
  | { status: "signed_in"; tokens: StoredTokens }
  | { status: "none" }
  | { status: "unusable"; why: string };

/** The repository and the application a sign-in belongs to. */
export interface SignInOwner {
  baseUrl: string;
  clientId: string;
}

/**
 * Where the operator's sign-in is kept: the token file, one client session's memory, or the shared
 * state of a fleet of replicas (shared-token-store.ts).
 */
export interface SignInStore {
  /** Where, in words for the user: the file's path, or which shared state. Never a secret. */
  readonly where: string;
  read(): Promise<StoredRead>;
  /** Stores a token response from the token endpoint; returns what was stored. */
  save(response: TokenResponse, now?: number): Promise<StoredTokens>;
  /** What `save` would store for a token response received at `now`. */
  pairOf(response: TokenResponse, now?: number): StoredTokens;
  /** Deletes the stored sign-in; false when there was none. */
  remove(): Promise<boolean>;
}

/** A stored sign-in read back: checked for its form and its owner, whatever held it. */
export function storedReadOf(raw: unknown, owner: SignInOwner, holder: string): StoredRead {
  if (raw === undefined) return { status: "none" };
  const parsed = storedSchema.safeParse(raw);
  if (!parsed.success) return { status: "unusable", why: `${holder} is not in the expected form` };
  const tokens = parsed.data;
  if (tokens.base_url !== owner.baseUrl || tokens.client_id !== owner.clientId) {
    return {
      status: "unusable",
      why: "the stored sign-in belongs to another repository address or application",
    };
  }
  return { status: "signed_in", tokens };
}

/** The pair to store for a token response received at `now` (ms). */
export function pairFor(response: TokenResponse, owner: SignInOwner, now: number): StoredTokens {
  return {
    access_token: response.access_token,
    refresh_token: response.refresh_token,
    expires_at: Math.floor(now / 1000) + Math.floor(response.expires_in),
    base_url: owner.baseUrl,
    client_id: owner.clientId,
  };
}

export class TokenStore implements SignInStore {
  constructor(
    readonly file: string,
    private readonly owner: SignInOwner,
  ) {}

  get where(): string {
    return this.file;
  }

  async read(): Promise<StoredRead> {
    let raw: unknown;
    try {
      raw = await readJsonIfPresent(this.file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return {
        status: "unusable",
        why: `the token file ${this.file} cannot be read (${code ?? "not JSON"})`,
      };
    }
    return storedReadOf(raw, this.owner, `the token file ${this.file}`);
  }

  /** Stores a token response from the token endpoint; returns what was stored. */
  async save(response: TokenResponse, now = Date.now()): Promise<StoredTokens> {
    const tokens = this.pairOf(response, now);
    await writePrivateJson(this.file, tokens);
    return tokens;
  }

  /** What `save` would store for a token response received at `now`. */
  pairOf(response: TokenResponse, now = Date.now()): StoredTokens {
    return pairFor(response, this.owner, now);
  }

  /** Deletes the stored sign-in; false when there was none. */
  async remove(): Promise<boolean> {
    const existed = (await readJsonIfPresent(this.file).catch(() => null)) !== undefined;
    await removeFile(this.file);
    return existed;
  }
}
