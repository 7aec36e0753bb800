// The one sleep every wait uses (rate waits, polls of the shared state, renewals): abortable, and
// safe for a delay longer than one Node timer holds.

/** setTimeout fires at once for a longer delay (and warns), so no timer is armed past it. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

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
