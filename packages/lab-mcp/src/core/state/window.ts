// The rate window of one credential on one remote, as a record both backends keep (in memory here; in
// Redis by the same rules in redis-scripts.ts). Requests are counted by window, not refilled one token at
// a time: a remote that allows N per window (the lab platform, 100 per fixed 10 s window opened by the
// first request) is best served by N at once, then nothing until the window ends. Every request granted
// counts at once, before its answer, so requests in flight are never promised twice. The window's end is
// the tightest one the remote tells: each answer bounds the end from above (its x-rate-limit-reset, whole
// seconds rounded up; and one window from when it arrived), and the first answers pin it within
// milliseconds.

export interface WindowRecord {
  /** Requests allowed per window (the remote's limit, learnt from x-rate-limit-limit). */
  capacity: number;
  windowMs: number;
  /** When the current window ends (epoch ms); 0: no window is open. */
  endsAt: number;
  /** When the current window opened (epoch ms): its first request left then, so it cannot end before openedAt + windowMs. */
  openedAt: number;
  /** Requests granted in the current window, answered or not. */
  used: number;
  /** Answers heard to requests granted in the current window (used - answered are in flight). */
  answered: number;
  /** The fewest requests the remote said were left in the current window; -1 before it said. */
  leftSeen: number;
  /** Whether endsAt comes from the remote (a reset it told) rather than our own estimate. */
  confirmed: boolean;
  /** Nothing is sent before this (epoch ms): the remote's Retry-After, whatever its headers say. */
  pausedUntil: number;
  /**
   * The pause was cut short (a Retry-After longer than the service's window allows): the window that
   * opens after it lets one request through, to probe, and the rest only once the remote answers it.
   */
  probing: boolean;
}

/** The longest pause a remote can impose (Retry-After, or a reset), and the longest window learnt. */
export const MAX_PAUSE_MS = 15 * 60_000;
/**
 * A Retry-After is believed up to this many of the service's own windows (the lab platform's 10 s, the
 * repository's minute): a remote healthy again after seconds must not lock a credential out for the
 * 15 minutes an absurd value (99999999) would ask; after the bound, one request probes.
 */
export const PAUSE_WINDOWS = 2;

/** How long a Retry-After of `ms` pauses a credential whose service counts by `knownWindowMs`. */
export function boundedPauseMs(ms: number, knownWindowMs: number): number {
  const asked = Number.isNaN(ms) ? 0 : Math.max(ms, 0);
  return Math.min(asked, knownWindowMs * PAUSE_WINDOWS, MAX_PAUSE_MS);
}
/**
 * Two ends further apart than this belong to different windows: a reset is whole seconds, so the
 * answers of one window can tell ends up to a second (plus latency) apart.
 */
export const SAME_WINDOW_SLACK_MS = 1500;

/** Clock noise allowed when telling an answer of an earlier window from one of ours. */
const EARLIER_WINDOW_SLACK_MS = 50;

/** Our own estimate of a window's end is later than its start by the window and this margin. */
export function unconfirmedMarginMs(windowMs: number): number {
  return Math.min(500, windowMs / 20);
}

/**
 * The share of the remote's limit this window may use: 1 when it is the only one counting for the
 * credential; less when several processes each count alone (shared state lost).
 */
export function shareOf(capacity: number, share: number): number {
  return Math.max(1, Math.floor(capacity * share));
}

export function newWindow(capacity: number, windowMs: number): WindowRecord {
  return {
    capacity,
    windowMs,
    endsAt: 0,
    openedAt: 0,
    used: 0,
    answered: 0,
    leftSeen: -1,
    confirmed: false,
    pausedUntil: 0,
    probing: false,
  };
}

/** A slot taken (waitMs 0) in the window opened at `ticket`, or how long to wait, counting nothing. */
export interface Slot {
  waitMs: number;
  /** The window the slot was counted in (its openedAt): its answer is heard as an answer of that window. */
  ticket: number;
}

/** Counts one request in the current window, or answers how long to wait. */
export function takeSlot(window: WindowRecord, now: number, share = 1): Slot {
  if (now < window.pausedUntil) return { waitMs: window.pausedUntil - now, ticket: window.openedAt };
  if (window.endsAt === 0 || now >= window.endsAt) {
    window.endsAt = now + window.windowMs + unconfirmedMarginMs(window.windowMs);
    window.openedAt = now;
    window.used = 0;
    window.answered = 0;
    window.leftSeen = -1;
    window.confirmed = false;
    if (window.probing) {
      // One slot left, and the others counted as answered: the probe's answer tells what is free.
      window.used = shareOf(window.capacity, share) - 1;
      window.answered = window.used;
      window.probing = false;
    }
  }
  if (window.used < shareOf(window.capacity, share)) {
    window.used += 1;
    return { waitMs: 0, ticket: window.openedAt };
  }
  return { waitMs: window.endsAt - now, ticket: window.openedAt };
}

/** What a take would find now, counting and opening nothing (see roomOf). */
export interface Room {
  /** Slots a take may count now (a window that ended counts as a fresh one). */
  free: number;
  /** When the window after this one can open, from now. */
  untilNextMs: number;
  /** Slots a later window holds. */
  perWindow: number;
  /** How long each later window lasts, as this process counts it (with its margin until the remote tells). */
  periodMs: number;
}

/** The room takeSlot would find now: the slots it would grant, and when the next window opens. */
export function roomOf(window: WindowRecord, now: number, share = 1): Room {
  const perWindow = shareOf(window.capacity, share);
  const periodMs = window.windowMs + unconfirmedMarginMs(window.windowMs);
  if (now < window.pausedUntil)
    return { free: 0, untilNextMs: window.pausedUntil - now, perWindow, periodMs };
  if (window.endsAt === 0 || now >= window.endsAt) {
    // Opened by the next take: one slot after a cut-short pause (the probe), else all of them.
    return { free: window.probing ? 1 : perWindow, untilNextMs: periodMs, perWindow, periodMs };
  }
  return {
    free: Math.max(0, perWindow - window.used),
    untilNextMs: window.endsAt - now,
    perWindow,
    periodMs,
  };
}

/**
 * Follows what an answer of the remote says of its window. `ticket` names the window its request was
 * counted in (undefined: unknown), which tells a late answer of an earlier window from one of ours.
 */
export function observeWindow(
  window: WindowRecord,
  now: number,
  { limit, remaining, resetMs }: { limit?: number; remaining?: number; resetMs?: number },
  share = 1,
  ticket?: number,
): void {
  if (limit !== undefined && Number.isFinite(limit) && limit >= 1) window.capacity = Math.floor(limit);
  const left =
    remaining !== undefined && Number.isFinite(remaining) && remaining >= 0 ? remaining : undefined;
  const reset =
    resetMs !== undefined && Number.isFinite(resetMs) && resetMs >= 0
      ? Math.min(resetMs, MAX_PAUSE_MS)
      : undefined;
  if (reset !== undefined) {
    if (reset > window.windowMs) window.windowMs = reset;
    // Two upper bounds of the end of the window this answer was counted in: the reset it tells (whole
    // seconds, rounded up), and a whole window from now (the window opened before this answer left).
    // The second is the tighter in a short burst, whose answers all tell the same rounded reset.
    const endsAt = now + Math.min(reset, window.windowMs);
    if (window.endsAt === 0 || now >= window.endsAt) {
      // Our window is over but the remote's is not (an answer to a request that reached it late): the
      // rest of the remote's window is the window now, with what it says is used.
      startRemoteWindow(window, endsAt, left);
      window.confirmed = true;
    } else if (
      ticket !== undefined &&
      ticket !== window.openedAt &&
      endsAt < window.openedAt + window.windowMs - EARLIER_WINDOW_SLACK_MS
    ) {
      // The late answer of a request of an earlier window, about a window that ends before ours can: it
      // says nothing of ours. (One of ours that does is about someone else's window, and is followed.)
      return;
    } else if (!window.confirmed) {
      // The first word from the remote on this window.
      window.endsAt = endsAt;
      window.confirmed = true;
    } else if (endsAt > window.endsAt + SAME_WINDOW_SLACK_MS) {
      // A later window than we thought (ours was cut short, e.g. by a Retry-After): what the remote says
      // is used in it replaces what we counted in ours.
      startRemoteWindow(window, endsAt, left);
    } else if (endsAt < window.endsAt) {
      window.endsAt = endsAt;
    }
  }
  if (ticket === window.openedAt) window.answered += 1;
  if (left === undefined) return;
  // The remote's count only grows within a window: the fewest left is the latest word, whatever order
  // the answers came back in.
  window.leftSeen = window.leftSeen < 0 ? left : Math.min(window.leftSeen, left);
  const counted = window.capacity - window.leftSeen;
  if (share < 1) {
    if (left === 0) window.used = Math.max(window.used, shareOf(window.capacity, share));
  } else if (window.used - window.answered <= 0) {
    // Nothing in flight: the remote's count is the whole truth, more (someone else used the
    // credential too) or less (it did not count all of ours) than we granted.
    window.used = counted;
  } else {
    // Requests in flight may not be counted yet: only ever more.
    window.used = Math.max(window.used, counted);
  }
}

/** The remote's window ending at `endsAt`, with what it says is left, is the window now. */
function startRemoteWindow(window: WindowRecord, endsAt: number, left: number | undefined): void {
  window.endsAt = endsAt;
  window.openedAt = endsAt - window.windowMs;
  window.used = left === undefined ? 0 : window.capacity - left;
  window.answered = window.used;
  window.leftSeen = left ?? -1;
}

/**
 * The remote refused for `ms` (Retry-After): the window is spent until then, or until the bound of the
 * service's window (`knownWindowMs`, as configured), after which one request probes.
 */
export function pauseWindow(
  window: WindowRecord,
  now: number,
  ms: number,
  share = 1,
  knownWindowMs = window.windowMs,
): void {
  const bounded = boundedPauseMs(ms, knownWindowMs);
  window.probing = ms > bounded;
  // The remote knows when its window frees better than our estimate does.
  window.endsAt = now + bounded;
  window.openedAt = window.endsAt - window.windowMs;
  window.pausedUntil = now + bounded;
  window.used = Math.max(window.used, shareOf(window.capacity, share));
  window.confirmed = true;
}
