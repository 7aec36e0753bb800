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
  private readonly msPerToken: number;

  constructor(
    limit: RateLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.capacity = limit.requests;
    this.tokens = limit.requests;
    this.msPerToken = limit.windowMs / limit.requests;
    this.refilledAt = now();
  }

  /**
   * Takes one token, waiting for it if needed. Tokens are reserved in arrival order (the balance may
   * go below zero), so concurrent callers are served first come, first served, without polling.
   * `onWait` hears how long the caller will wait when that is not immediate.
   */
  async take(signal?: AbortSignal, onWait?: (waitMs: number) => void): Promise<void> {
    signal?.throwIfAborted();
    this.refill();
    this.tokens -= 1;
    const waitMs = Math.max(
      this.blockedUntil - this.now(),
      this.tokens < 0 ? -this.tokens * this.msPerToken : 0,
    );
    if (waitMs <= 0) return;
    onWait?.(waitMs);
    try {
      await sleep(waitMs, signal);
    } catch (error) {
      this.tokens += 1; // a cancelled caller gives its reservation back
      throw error;
    }
  }

  /** Follows what the remote says of its own window (x-rate-limit-* headers). */
  observe({ limit, remaining, resetMs }: { limit?: number; remaining?: number; resetMs?: number }): void {
    this.refill();
    if (limit !== undefined && limit > 0) this.capacity = limit;
    if (remaining !== undefined && remaining < this.tokens) this.tokens = remaining;
    if (remaining === 0 && resetMs !== undefined) this.pause(resetMs);
  }

  /** Holds every caller back for a while, e.g. after a 429 with Retry-After. */
  pause(ms: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + ms);
  }

  private refill(): void {
    const now = this.now();
    const earned = (now - this.refilledAt) / this.msPerToken;
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
