// Fixed-window request counting per caller, as the remote services enforce their limits
// (e.g. 100 requests per 10 s per user or app), with what the x-rate-limit-* headers report.
import type { Clock } from "./clock.js";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

export class RateWindows {
  #windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly clock: Clock,
    public limit: number,
    public windowMs: number,
  ) {}

  /** Counts one request by `caller` and says whether it is within the limit. */
  hit(caller: string): RateDecision {
    const now = this.clock.now();
    let window = this.#windows.get(caller);
    if (!window || now - window.startedAt >= this.windowMs) {
      window = { startedAt: now, count: 0 };
      this.#windows.set(caller, window);
    }
    window.count += 1;
    return {
      allowed: window.count <= this.limit,
      limit: this.limit,
      remaining: Math.max(0, this.limit - window.count),
      resetMs: window.startedAt + this.windowMs - now,
    };
  }

  reset(): void {
    this.#windows.clear();
  }
}
