// An OAuth sign-in in use: the current token pair, renewed before it expires and once after the
// repository refuses it (expired or revoked), without the user noticing. The repository rotates tokens on
// refresh (the old pair dies at once), so: one refresh at a time for all concurrent calls, the new pair
// on disk before it is used, and a pair another process of the user stored is adopted, never refreshed
// a second time.
import { randomUUID } from "node:crypto";
import { ActionableError } from "../../../core/errors.js";
import { sleep } from "../../../core/http/rate-limiter.js";
import { SIGN_IN_HINT } from "../settings.js";
import type { ProtocolsCredential } from "./credential.js";
import { InvalidGrantError, type TokenEndpoint } from "./token-endpoint.js";
import type { StoredTokens, TokenStore } from "./token-store.js";

/** Renew this long before the access token expires. */
export const REFRESH_MARGIN_MS = 60_000;
/** After a refused refresh, how often and how long to look for the pair another process stored. */
const RACE_CHECKS = 5;
const RACE_CHECK_EVERY_MS = 200;

export class SessionEndedError extends ActionableError {
  constructor() {
    super(
      `The sign-in to the protocol repository has expired or was revoked. ${SIGN_IN_HINT} to sign in again.`,
    );
  }
}

export class OAuthSession implements ProtocolsCredential {
  readonly kind = "oauth" as const;
  readonly description = "OAuth sign-in";
  /** Names this sign-in for its rate limiters; stays the same across refreshes. */
  readonly id = `oauth:${randomUUID()}`;
  private refreshing: Promise<void> | undefined;
  /** Refresh tokens this session has rotated away from: never to be adopted again from the file. */
  private readonly retired = new Set<string>();
  private ended = false;

  constructor(
    private tokens: StoredTokens,
    private readonly store: TokenStore,
    private readonly endpoint: TokenEndpoint,
    private readonly now: () => number = Date.now,
  ) {}

  get expiresAt(): Date {
    return new Date(this.tokens.expires_at * 1000);
  }

  /**
   * Takes a pair read from the token file when it is newer than ours: another process refreshed, or
   * the user signed in again from a terminal. Returns false for one this session has rotated away from.
   */
  adopt(stored: StoredTokens): boolean {
    if (stored.refresh_token === this.tokens.refresh_token) return !this.ended;
    if (this.retired.has(stored.refresh_token)) return !this.ended;
    this.tokens = stored;
    this.ended = false;
    return true;
  }

  async authorize(headers: Headers): Promise<void> {
    if (this.ended) throw new SessionEndedError();
    if (this.now() >= this.tokens.expires_at * 1000 - REFRESH_MARGIN_MS)
      await this.refresh(this.tokens.access_token);
    headers.set("authorization", `Bearer ${this.tokens.access_token}`);
  }

  async renewAfterUnauthorized(_signal?: AbortSignal, sentAuthorization?: string | null): Promise<boolean> {
    if (this.ended) return false;
    const current = `Bearer ${this.tokens.access_token}`;
    // Another call renewed while this one was out: just send again with the new token.
    if (sentAuthorization && sentAuthorization !== current) return true;
    await this.refresh(this.tokens.access_token);
    return true;
  }

  /**
   * One refresh for every caller that found `stale` wanting. It is not tied to any one caller's
   * cancellation, since the others wait for it too; the request timeout bounds it.
   */
  private refresh(stale: string): Promise<void> {
    if (this.tokens.access_token !== stale) return Promise.resolve();
    this.refreshing ??= this.rotate().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async rotate(): Promise<void> {
    if (await this.adoptFromFile()) return;
    const old = this.tokens.refresh_token;
    let response: Awaited<ReturnType<TokenEndpoint["refresh"]>>;
    try {
      response = await this.endpoint.refresh(old);
    } catch (error) {
      if (!(error instanceof InvalidGrantError)) throw error;
      // Lost a race with another process of the user's? Its pair replaced the refused one: in the file
      // already (perhaps adopted by another call meanwhile), or in a moment.
      for (let attempt = 0; attempt < RACE_CHECKS; attempt++) {
        if (await this.replaced(old)) return;
        await sleep(RACE_CHECK_EVERY_MS);
      }
      this.ended = true;
      throw new SessionEndedError();
    }
    if (response.refresh_token !== old) this.retired.add(old);
    // The old pair is dead now: the new one goes to disk before any request uses it.
    try {
      this.tokens = await this.store.save(response, this.now());
    } catch (error) {
      this.tokens = this.store.pairOf(response, this.now());
      const code = (error as NodeJS.ErrnoException).code ?? "write failed";
      throw new ActionableError(
        `The sign-in was renewed but could not be saved to ${this.store.file} (${code}). This server goes on ` +
          "working; fix the file's folder, or you will have to sign in again after a restart.",
      );
    }
  }

  /** Whether a pair other than the one of `refusedRefreshToken` is current now, the file read again. */
  private async replaced(refusedRefreshToken: string): Promise<boolean> {
    const stored = await this.store.read();
    if (stored.status === "signed_in") this.adopt(stored.tokens);
    return this.tokens.refresh_token !== refusedRefreshToken;
  }

  private async adoptFromFile(): Promise<boolean> {
    const stored = await this.store.read();
    if (stored.status !== "signed_in") return false;
    const before = this.tokens.refresh_token;
    return this.adopt(stored.tokens) && this.tokens.refresh_token !== before;
  }
}
