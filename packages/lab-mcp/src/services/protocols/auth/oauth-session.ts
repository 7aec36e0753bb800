// An OAuth sign-in in use: the current token pair, renewed before it expires and once after the
// repository refuses it (expired or revoked), without the user noticing. The repository rotates tokens on
// refresh (the old pair dies at once), so: one refresh at a time for all concurrent calls, the new pair
// stored before it is used, and a pair another process stored is adopted, never refreshed a second
// time. Kept in the shared state of a fleet, one replica renews under the sign-in's lock and the others
// wait for the pair it stores.
import { randomUUID } from "node:crypto";
import { renewShared } from "../../../core/credentials/shared-renewal.js";
import { ActionableError } from "../../../core/errors.js";
import { sleep } from "../../../core/sleep.js";
import type { TokenResponse } from "../records/token-response.js";
import { SIGN_IN_HINT } from "../settings.js";
import type { ProtocolsCredential } from "./credential.js";
import { SharedTokenStore } from "./shared-token-store.js";
import { InvalidGrantError, type TokenEndpoint } from "./token-endpoint.js";
import type { SignInStore, StoredTokens } from "./token-store.js";

/** Renew this long before the access token expires. */
export const REFRESH_MARGIN_MS = 60_000;
/** After a refused refresh, how often and how long to look for the pair another process stored. */
const RACE_CHECKS = 5;
const RACE_CHECK_EVERY_MS = 200;
/** In a fleet, how often a replica waiting for another's renewal looks at the stored pair. */
const FLEET_CHECK_EVERY_MS = 100;

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
  /** Names this sign-in for its rate limiters; stays the same across refreshes (and, in a fleet, replicas). */
  readonly id: string;
  private refreshing: Promise<void> | undefined;
  /**
   * Counts the changes of the pair: a read of the store begun before the last change may hold a pair
   * older than ours (reads can finish out of order), and is never adopted.
   */
  private changes = 0;
  /** Refresh tokens this session has rotated away from: never to be adopted again from the file. */
  private readonly retired = new Set<string>();
  private ended = false;

  constructor(
    private tokens: StoredTokens,
    private readonly store: SignInStore,
    private readonly endpoint: TokenEndpoint,
    private readonly now: () => number = Date.now,
  ) {
    this.id = store instanceof SharedTokenStore ? store.credentialId : `oauth:${randomUUID()}`;
  }

  get expiresAt(): Date {
    return new Date(this.tokens.expires_at * 1000);
  }

  /** Where the pair stands: pass it, taken before a read of the store, to `adopt` with what was read. */
  get mark(): number {
    return this.changes;
  }

  /**
   * Takes a pair read from the store when it is newer than ours: another process refreshed, or the
   * user signed in again from a terminal. A pair this session rotated away from, or read before ours
   * last changed (`readAt`, the mark taken before the read), is left alone. Returns false when this
   * session has ended and the store holds nothing newer.
   */
  adopt(stored: StoredTokens, readAt = this.changes): boolean {
    if (readAt !== this.changes) return !this.ended;
    if (stored.refresh_token === this.tokens.refresh_token) return !this.ended;
    if (this.retired.has(stored.refresh_token)) return !this.ended;
    this.use(stored);
    this.ended = false;
    return true;
  }

  /** Whether `stored` is a pair this session rotated away from: its renewal never reached the store. */
  outlived(stored: StoredTokens): boolean {
    return this.retired.has(stored.refresh_token);
  }

  /**
   * In a fleet: where the shared state still holds a pair this session rotated away from (it renewed
   * while Redis was out of reach, so only this replica knows the live pair), puts the live pair back,
   * compare-and-set, so that the other replicas take it instead of sending a dead refresh token.
   */
  async restoreShared(): Promise<void> {
    if (!(this.store instanceof SharedTokenStore)) return;
    const { read, version } = await this.store.readVersioned();
    if (read.status !== "signed_in" || version === null || !this.outlived(read.tokens)) return;
    await this.store.saveIf(this.tokens, version);
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
    this.refreshing ??= this.rotate(this.tokens.refresh_token).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  /** Replaces the pair of refresh token `old`; done as soon as this session holds another pair. */
  private async rotate(old: string): Promise<void> {
    if (this.store instanceof SharedTokenStore) return this.rotateInFleet(this.store, old);
    if (await this.adoptStored(old)) return;
    const response = await this.refreshAtRepository(old);
    if (!response) return;
    // The old pair is dead now: the new one is stored before any request uses it.
    const now = this.now();
    this.use(this.store.pairOf(response, now));
    await this.keep(() => this.store.save(response, now));
  }

  /**
   * Renewal in a fleet: whoever holds the sign-in's lock renews; the others look at the stored pair
   * until it changes (or the lock of a replica that died runs out and they take it over). A replica
   * whose pair is stale (the store holds a newer one) takes that one and never sends its dead refresh
   * token.
   */
  private async rotateInFleet(store: SharedTokenStore, old: string): Promise<void> {
    await renewShared({
      fresh: async () => ((await this.adoptStored(old)) ? true : undefined),
      tryLock: () => store.lockRenewal(),
      renewHoldingLock: async () => {
        await this.renewHoldingLock(store, old);
        return true;
      },
      gaveUp: () => {
        throw new ActionableError(
          "The sign-in to the protocol repository is being renewed by another replica of this server, which did " +
            "not finish in time. Please try again.",
        );
      },
      giveUpAt: Date.now() + 2 * store.renewalLockMs,
      pollMs: FLEET_CHECK_EVERY_MS,
    });
  }

  private async renewHoldingLock(store: SharedTokenStore, old: string): Promise<void> {
    // Another replica may have renewed between our look and our lock.
    const readAt = this.changes;
    const { read, version } = await store.readVersioned();
    if (this.tokens.refresh_token !== old) return;
    if (read.status !== "signed_in") {
      // Signed out (or replaced by something unusable) meanwhile: nothing to renew.
      this.ended = true;
      throw new SessionEndedError();
    }
    if (this.adopt(read.tokens, readAt) && this.tokens.refresh_token !== old) return;
    const response = await this.refreshAtRepository(old);
    if (!response) return;
    this.use(store.pairOf(response, this.now()));
    const stored = await this.keep(() => store.saveIf(this.tokens, version));
    // Someone wrote between our read and our write (a sign-in from a terminal, or a replica whose lock
    // had run out): theirs is the fleet's pair from now on.
    if (!stored) await this.adoptStored(this.tokens.refresh_token);
  }

  /**
   * The repository's new pair for `old`, which is retired from then on; undefined when the repository
   * refused it because another process had renewed first, whose pair is ours now.
   */
  private async refreshAtRepository(old: string): Promise<TokenResponse | undefined> {
    let response: TokenResponse;
    try {
      response = await this.endpoint.refresh(old);
    } catch (error) {
      if (!(error instanceof InvalidGrantError)) throw error;
      // Lost a race with another process? Its pair replaced the refused one: in the store already
      // (perhaps adopted by another call meanwhile), or in a moment.
      for (let attempt = 0; attempt < RACE_CHECKS; attempt++) {
        if (await this.adoptStored(old)) return undefined;
        await sleep(RACE_CHECK_EVERY_MS);
      }
      this.ended = true;
      throw new SessionEndedError();
    }
    if (response.refresh_token !== old) this.retired.add(old);
    return response;
  }

  /** Stores the renewed pair; when that fails, this server goes on with it in memory and says so. */
  private async keep<T>(store: () => Promise<T>): Promise<T> {
    try {
      return await store();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "write failed";
      const fix = this.store instanceof SharedTokenStore ? "check the shared state" : "fix the file's folder";
      throw new ActionableError(
        `The sign-in was renewed but could not be saved to ${this.store.where} (${code}). This server goes on ` +
          `working; ${fix}, or you will have to sign in again after a restart.`,
      );
    }
  }

  /** Adopts the stored pair when it is newer than ours; whether this session holds a pair other than `old` now. */
  private async adoptStored(old: string): Promise<boolean> {
    const readAt = this.changes;
    const stored = await this.store.read();
    if (stored.status === "signed_in") this.adopt(stored.tokens, readAt);
    return this.tokens.refresh_token !== old;
  }

  private use(tokens: StoredTokens): void {
    this.tokens = tokens;
    this.changes++;
  }
}
