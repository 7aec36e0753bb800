// A client-side token bucket shared by every concurrent call that uses one credential, so that we
// stay under the remote's limit instead of discovering it through 429s.

export interface RateLimit {
  /** Requests allowed per window. */
  requests: number;
  windowMs: number;
}

export class TokenBucket {
  private tokens: number;
  private refilledAt: number;
  private blockedUntil = 0;
  private capacity: number;
  private windowMs: number;

  constructor(
    limit: RateLimit,
    private readonly now: () => number = Date.now,
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
        const until = this.now() + waitMs;
        if (until > toldUntil + 1000) {
          onWait?.(waitMs);
          toldUntil = until;
        }
        await sleep(waitMs, signal);
      }
    } catch (error) {
      this.tokens += 1; // a cancelled caller gives its reservation back
      throw error;
    }
  }

  /**
   * Follows what the remote says of its window (x-rate-limit-* headers): its limit, what is left, and
   * when it resets. The window length is learnt as the longest reset seen for the current limit.
   */
  observe({ limit, remaining, resetMs }: { limit?: number; remaining?: number; resetMs?: number }): void {
    this.refill();
    if (limit !== undefined && limit > 0 && limit !== this.capacity) {
      this.capacity = limit;
      this.tokens = Math.min(this.tokens, limit);
      if (resetMs !== undefined && resetMs > 0) this.windowMs = resetMs;
    } else if (resetMs !== undefined && resetMs > this.windowMs) {
      this.windowMs = resetMs;
    }
    if (remaining !== undefined && remaining < this.tokens) this.tokens = remaining;
    if (remaining === 0 && resetMs !== undefined) this.pause(resetMs);
  }

  /** Holds every caller back for a while, e.g. after a 429 with Retry-After. */
  pause(ms: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + ms);
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

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
