// Where an OAuth sign-in is kept between runs: one JSON file in the user's config folder (or
// PROTOCOLS_TOKEN_FILE), mode 0600, replaced atomically. The file names the repository and the
// application it belongs to, so that tokens never go to another one.
import { z } from "zod";
import { readJsonIfPresent, removeFile, writePrivateJson } from "../../../core/user-config.js";
import type { TokenResponse } from "../types.js";

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

export class TokenStore {
  constructor(
    readonly file: string,
    private readonly owner: { baseUrl: string; clientId: string },
  ) {}

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
    if (raw === undefined) return { status: "none" };
    const parsed = storedSchema.safeParse(raw);
    if (!parsed.success)
      return { status: "unusable", why: `the token file ${this.file} is not in the expected form` };
    const tokens = parsed.data;
    if (tokens.base_url !== this.owner.baseUrl || tokens.client_id !== this.owner.clientId) {
      return {
        status: "unusable",
        why: "the stored sign-in belongs to another repository address or application",
      };
    }
    return { status: "signed_in", tokens };
  }

  /** Stores a token response from the token endpoint; returns what was stored. */
  async save(response: TokenResponse, now = Date.now()): Promise<StoredTokens> {
    const tokens = this.pairOf(response, now);
    await writePrivateJson(this.file, tokens);
    return tokens;
  }

  /** What `save` would store for a token response received at `now`. */
  pairOf(response: TokenResponse, now = Date.now()): StoredTokens {
    return {
      access_token: response.access_token,
      refresh_token: response.refresh_token,
      expires_at: Math.floor(now / 1000) + Math.floor(response.expires_in),
      base_url: this.owner.baseUrl,
      client_id: this.owner.clientId,
    };
  }

  /** Deletes the stored sign-in; false when there was none. */
  async remove(): Promise<boolean> {
    const existed = (await readJsonIfPresent(this.file).catch(() => null)) !== undefined;
    await removeFile(this.file);
    return existed;
  }
}
