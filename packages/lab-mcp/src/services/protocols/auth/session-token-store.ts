// The token store of a sign-in made by one client of a server shared over HTTP: the same rules as the
// token file (renewals kept before use), but in the memory of that client's session only, never on disk.

import type { TokenResponse } from "../records/token-response.js";
import { type StoredRead, type StoredTokens, TokenStore } from "./token-store.js";

export class SessionTokenStore extends TokenStore {
  private tokens: StoredTokens | undefined;

  constructor(owner: { baseUrl: string; clientId: string }) {
    super("(this client session's memory)", owner);
  }

  override async read(): Promise<StoredRead> {
    return this.tokens ? { status: "signed_in", tokens: this.tokens } : { status: "none" };
  }

  override async save(response: TokenResponse, now = Date.now()): Promise<StoredTokens> {
    this.tokens = this.pairOf(response, now);
    return this.tokens;
  }

  override async remove(): Promise<boolean> {
    const existed = this.tokens !== undefined;
    this.tokens = undefined;
    return existed;
  }
}
