// The emulator's notion of time: real time plus an offset the admin API can move forward, so that
// token expiry and rate windows can be tested without waiting.

export class Clock {
  #offsetMs = 0;

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** Moves time forward (never back: expired things stay expired). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError("the clock only moves forward");
    this.#offsetMs += ms;
  }
}
