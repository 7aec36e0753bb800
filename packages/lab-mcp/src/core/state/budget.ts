// A rate budget as the remote client uses it: take a slot, waiting for it in a fair line (telling how
// long), or fail at once with the rate-limit error when the wait would be longer than a call should wait.
import { randomBytes } from "node:crypto";
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
   * reports stays true. A wait longer than the bound, or a share that already has the most calls
   * waiting, is a RemoteStatusError 429 at once. While it waits the call holds a place in the budget's
   * line, served by `share` in turn with every other share waiting (the person, or the client session
   * without one); a cancelled call gives its place up. Answers the slot's ticket, for `observe`.
   */
  async take(signal?: AbortSignal, onWait?: (waitMs: number) => void, share = ""): Promise<number> {
    signal?.throwIfAborted();
    const place = randomBytes(12).toString("base64url");
    const ask = { share, place, maxWaitMs: this.maxWaitMs };
    let toldUntil = 0;
    let inLine = false;
    try {
      for (let slot = await this.store.take(ask); ; slot = await this.store.take(ask)) {
        const { waitMs } = slot;
        if (waitMs <= 0) return slot.ticket;
        // Neither is kept in line: the store gave the place up (or never took it).
        if (slot.refused || waitMs > this.maxWaitMs) throw new RemoteStatusError(429, waitMs);
        inLine = true;
        const until = Date.now() + waitMs;
        if (until > toldUntil + 1000) {
          onWait?.(waitMs);
          toldUntil = until;
        }
        await sleep(Math.min(slot.recheckMs ?? waitMs, waitMs, RECHECK_MS), signal);
      }
    } catch (error) {
      // Cancelled, or the store failed: the place goes now rather than when it expires.
      if (inLine && !(error instanceof RemoteStatusError))
        await this.store.leave(place).catch(() => undefined);
      throw error;
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
