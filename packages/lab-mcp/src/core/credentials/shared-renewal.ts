// A token shared by a fleet of replicas and renewed under a lock: one replica renews while the others
// look at the shared copy until it changes; a lock whose holder died runs out and another takes over.
// Both services' fleets renew this way (the lab platform's app token, the repository's sign-in):
// the loop lives here once, what "fresh", "renew" and "gave up" mean stays with each service.
import { sleep } from "../sleep.js";
import type { Lock } from "../state/shared-state.js";

export interface SharedRenewal<T> {
  /** What the shared state holds now, when it is good to use; undefined: it needs renewing. */
  fresh(): Promise<T | undefined>;
  /** The renewal lock, or undefined while another replica holds it. */
  tryLock(): Promise<Lock | undefined>;
  /** Renews, holding the lock (look again first: another replica may have renewed meanwhile). */
  renewHoldingLock(): Promise<T>;
  /** Waited past `giveUpAt` for another replica: what to do instead (renew alone, or throw). */
  gaveUp(): Promise<T>;
  /** When waiting for another replica stops, in `now()`'s milliseconds. */
  giveUpAt: number;
  /** How often a waiting replica looks at the shared copy again. */
  pollMs: number;
  now?: () => number;
  signal?: AbortSignal;
}

/** The shared value, renewed by this replica under the lock or by another one meanwhile. */
export async function renewShared<T>(renewal: SharedRenewal<T>): Promise<T> {
  const now = renewal.now ?? Date.now;
  for (;;) {
    const seen = await renewal.fresh();
    if (seen !== undefined) return seen;
    const lock = await renewal.tryLock();
    if (lock) {
      try {
        return await renewal.renewHoldingLock();
      } finally {
        // A release that fails is harmless: the lock runs out on its own.
        await lock.release().catch(() => undefined);
      }
    }
    if (now() >= renewal.giveUpAt) return renewal.gaveUp();
    await sleep(renewal.pollMs, renewal.signal);
  }
}
