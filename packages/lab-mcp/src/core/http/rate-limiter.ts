// A client-side token bucket shared by every concurrent call that uses one credential, so that we
// stay under the remote's limit instead of discovering it through 429s. What the remote says of its
// limit is followed, within bounds: a remote (mistaken or hostile) cannot hold a credential back for
// longer than MAX_PAUSE_MS, nor slow it to less than one request per MAX_WINDOW_MS.
import { RemoteStatusError } from "../errors.js";

export interface RateLimit {
  /** Requests allowed per window. */
  requests: number;
  windowMs: number;
}

/** The longest pause a remote can impose (Retry-After, or nothing left until its reset). */
export const MAX_PAUSE_MS = 15 * 60_000;
/** The longest window learnt from x-rate-limit-reset. */
export const MAX_WINDOW_MS = 60 * 60_000;
/** A call that would wait longer than this for its turn gets the rate-limit text at once instead. */
export const MAX_WAIT_MS = 2 * 60_000;
/** setTimeout fires at once for a longer delay (and warns), so no timer is armed past it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * Two reset times (now + x-rate-limit-reset) further apart than this belong to different windows: the
 * reset is in whole seconds, so one window's observations can differ by up to a second.
 */
const SAME_WINDOW_SLACK_MS = 1500;

export class TokenBucket {
  private tokens: number;
  private refilledAt: number;
  private blockedUntil = 0;
  private capacity: number;
  private windowMs: number;
  /** When the remote's current window ends, as last reported; undefined before it reports one. */
  private windowEndsAt: number | undefined;

  constructor(
    limit: RateLimit,
    private readonly now: () => number = Date.now,
    private readonly maxWaitMs: number = MAX_WAIT_MS,
  ) {
    this.capacity = limit.requests;
    this.tokens = limit.requests;
    this.windowMs = limit.windowMs;
    this.refilledAt = now();
  }

  /**
   * Takes one token, waiting for it if needed. Tokens are reserved in arrival order (the balance may
   * go below zero), so concurrent callers are served first come, first served, without polling; a
   * pause that starts while a caller waits (the remote said "no more") holds it back too.
   * `onWait` hears how long the caller will wait when that is not immediate, and again if it grows.
   * A wait longer than the bound is a RemoteStatusError 429 at once (the reservation given back).
   */
  async take(signal?: AbortSignal, onWait?: (waitMs: number) => void): Promise<void> {
    signal?.throwIfAborted();
    this.refill();
    this.tokens -= 1;
    const readyAt = this.now() + (this.tokens < 0 ? -this.tokens * this.msPerToken() : 0);
    // The caller hears the wait again whenever it grows (a pause began meanwhile), so that what it
    // reports stays true.
    let toldUntil = 0;
    try {
      for (let waitMs = this.waitUntil(readyAt); waitMs > 0; waitMs = this.waitUntil(readyAt)) {
        if (waitMs > this.maxWaitMs) throw new RemoteStatusError(429, waitMs);
        const until = this.now() + waitMs;
        if (until > toldUntil + 1000) {
          onWait?.(waitMs);
          toldUntil = until;
        }
        await sleep(waitMs, signal);
      }
    } catch (error) {
      this.tokens += 1; // a cancelled or refused caller gives its reservation back
      throw error;
    }
  }

  /**
   * Follows what the remote says of its window (x-rate-limit-* headers): its limit, what is left, and
   * when it resets. The window length is learnt as the longest reset seen in the remote's current
   * window; a reset that points to another window (a new one, or one the remote cut short) starts
   * learning afresh, so a window learnt too long shrinks back.
   */
  observe({ limit, remaining, resetMs }: { limit?: number; remaining?: number; resetMs?: number }): void {
    this.refill();
    const reset = resetMs === undefined || !(resetMs >= 0) ? undefined : Math.min(resetMs, MAX_WINDOW_MS);
    const endsAt = reset === undefined ? undefined : this.now() + reset;
    const sameWindow =
      endsAt !== undefined &&
      this.windowEndsAt !== undefined &&
      Math.abs(endsAt - this.windowEndsAt) <= SAME_WINDOW_SLACK_MS;
    if (limit !== undefined && Number.isFinite(limit) && limit > 0 && limit !== this.capacity) {
      this.capacity = limit;
      this.tokens = Math.min(this.tokens, limit);
      if (reset !== undefined && reset > 0) this.windowMs = reset;
    } else if (reset !== undefined && reset > 0) {
      this.windowMs = sameWindow ? Math.max(this.windowMs, reset) : reset;
    }
    if (endsAt !== undefined) this.windowEndsAt = endsAt;
    const left = remaining === undefined || !(remaining >= 0) ? undefined : remaining;
    if (left !== undefined && left < this.tokens) this.tokens = left;
    if (left === 0 && reset !== undefined) this.pause(reset);
  }

  /** Holds every caller back for a while (at most MAX_PAUSE_MS), e.g. after a 429 with Retry-After. */
  pause(ms: number): void {
    const bounded = Number.isNaN(ms) ? 0 : Math.min(Math.max(ms, 0), MAX_PAUSE_MS);
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + bounded);
  }

  private waitUntil(readyAt: number): number {
    return Math.max(readyAt, this.blockedUntil) - this.now();
  }

  private msPerToken(): number {
    return this.windowMs / this.capacity;
  }

  private refill(): void {
    const now = this.now();
    const earned = (now - this.refilledAt) / this.msPerToken();
    this.tokens = Math.min(this.capacity, this.tokens + earned);
    this.refilledAt = now;
  }
}

/** Resolves after `ms` (re-armed in steps for a delay past what one timer holds), or rejects on abort. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const endsAt = Date.now() + ms;
    let timer: NodeJS.Timeout;
    const arm = () => {
      const left = endsAt - Date.now();
      if (left <= 0) {
        signal?.removeEventListener("abort", onAbort);
        return resolve();
      }
      timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    };
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    arm();
  });
}
