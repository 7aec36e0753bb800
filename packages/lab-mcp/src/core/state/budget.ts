// A rate budget as the remote client uses it: take a slot, waiting for it (telling how long), or fail at
// once with the rate-limit error when the wait would be longer than a call should wait.
import { RemoteStatusError } from "../errors.js";
import { sleep } from "../sleep.js";
import type { BudgetStore, WindowObservation } from "./shared-state.js";

/** A call that would wait longer than this for its turn gets the rate-limit text at once instead. */
export const MAX_WAIT_MS = 2 * 60_000;
/** Waiters ask again at least this often: a window opened by another process is seen soon enough. */
const RECHECK_MS = 5_000;

export class RateBudget {
  constructor(
    private readonly store: BudgetStore,
    private readonly maxWaitMs: number = MAX_WAIT_MS,
  ) {}

  /**
   * Takes one slot of the window, waiting for the window that has one. `onWait` hears how long the
   * caller will wait when that is not immediate, and again whenever the wait grows, so that what it
   * reports stays true. A wait longer than the bound is a RemoteStatusError 429 at once. Answers the
   * slot's ticket, for `observe`.
   */
  async take(signal?: AbortSignal, onWait?: (waitMs: number) => void): Promise<number> {
    signal?.throwIfAborted();
    let toldUntil = 0;
    for (let slot = await this.store.take(); ; slot = await this.store.take()) {
      const { waitMs } = slot;
      if (waitMs <= 0) return slot.ticket;
      if (waitMs > this.maxWaitMs) throw new RemoteStatusError(429, waitMs);
      const until = Date.now() + waitMs;
      if (until > toldUntil + 1000) {
        onWait?.(waitMs);
        toldUntil = until;
      }
      await sleep(Math.min(waitMs, RECHECK_MS), signal);
    }
  }

  /** What the answer to the request of `ticket` (from take) said of the remote's window. */
  observe(observation: WindowObservation, ticket?: number): Promise<void> {
    return this.store.observe(observation, ticket);
  }

  pause(ms: number): Promise<void> {
    return this.store.pause(ms);
  }
}
