// Fair shares of one rate budget: whoever asks while the window has room takes a slot at once; once
// callers wait, slots go round-robin by share (a person; a caller without one, such as stdio or the
// CLI, is one share), so that one person's flood of calls delays another person's call by at most one
// call of each other waiting share. Start-time fair queueing with one unit per call: a waiting call's
// tag is one past its share's previous waiting call, or one past the last tag granted when its share
// had none waiting; the line is served by tag (then by arrival). This is one process's line; Redis
// keeps the fleet's by the same rules (redis-scripts.ts).
import { roomOf, type Slot, takeSlot, type WindowRecord } from "./window.js";

/**
 * Calls of one share waiting in one budget's line at most: one more is refused with the rate-limit
 * error at once (its wait would be past what a call should wait anyway on any remote we serve).
 */
export const MAX_WAITING_PER_SHARE = 500;
/**
 * A place in line whose caller has not asked again for this long is given up (a caller that died, a
 * replica that crashed): a live one asks again at least every RECHECK_MS of budget.ts (5 s).
 */
export const PLACE_TTL_MS = 15_000;
/** Places past their time are dropped at most this often (each drop walks the line). */
const PURGE_EVERY_MS = 1000;

/** One ask for a slot of a budget. */
export interface SlotAsk {
  /** Whose turn it is: a keyed name of the person or client session (never shown to anyone). */
  share?: string;
  /**
   * The caller's place in line (a random name it keeps while it waits): asked again with it, the call
   * keeps its turn. Without one, the ask is counted only when a slot is free for it now, and waits for
   * nothing.
   */
  place?: string;
  /** A wait longer than this is not waited in line: the answer tells it, and the place is given up. */
  maxWaitMs?: number;
}

/** A slot counted (waitMs 0), or how long the wait is likely to be; refused: the share's line is full. */
export interface SlotAnswer extends Slot {
  /**
   * When to ask again: when the next window opens, where the line moves (sooner than waitMs when the
   * call is not among the next window's: those ahead may have left by then). Absent: waitMs.
   */
  recheckMs?: number;
  refused?: boolean;
}

interface Waiter {
  place: string;
  share: string;
  tag: number;
  /** Arrival order, for waiters of one tag. */
  seq: number;
  expiresAt: number;
}

export class FairLine {
  /** Waiting calls in the order they are served: by tag, then by arrival. */
  private readonly waiters: Waiter[] = [];
  private readonly byPlace = new Map<string, Waiter>();
  /** Per share with calls waiting: how many, and the tag of its last. */
  private readonly shares = new Map<string, { waiting: number; lastTag: number }>();
  /** The highest tag granted: a share with none waiting starts just after it. */
  private virtualTime = 0;
  private seq = 0;
  private nextPurgeAt = 0;

  get waiting(): number {
    return this.waiters.length;
  }

  /** Counts a slot of `window` for the ask when its turn has come, or tells how long to wait. */
  ask(window: WindowRecord, now: number, ask: SlotAsk, share = 1): SlotAnswer {
    this.purge(now);
    const name = ask.share ?? "";
    const held = ask.place === undefined ? undefined : this.byPlace.get(ask.place);
    const room = roomOf(window, now, share);
    const tag = held?.tag ?? this.nextTagOf(name);
    const rank = held ? this.waiters.indexOf(held) : this.countUpTo(tag);
    // Those ahead take theirs first: a slot is this caller's when fewer are ahead than are free.
    if (rank < room.free) {
      if (held) this.remove(held, true);
      return takeSlot(window, now, share);
    }
    const later = Math.floor((rank - room.free) / room.perWindow);
    const waitMs = room.untilNextMs + later * room.periodMs;
    const answer = { waitMs, ticket: window.openedAt, recheckMs: room.untilNextMs };
    if (ask.maxWaitMs !== undefined && waitMs > ask.maxWaitMs) {
      if (held) this.remove(held, false);
      return answer;
    }
    if (held) {
      held.expiresAt = now + PLACE_TTL_MS;
      return answer;
    }
    if (ask.place === undefined) return answer;
    const record = this.shares.get(name) ?? { waiting: 0, lastTag: 0 };
    if (record.waiting >= MAX_WAITING_PER_SHARE) return { ...answer, refused: true };
    const waiter = { place: ask.place, share: name, tag, seq: ++this.seq, expiresAt: now + PLACE_TTL_MS };
    this.waiters.splice(this.countUpTo(tag), 0, waiter);
    this.byPlace.set(waiter.place, waiter);
    this.shares.set(name, { waiting: record.waiting + 1, lastTag: tag });
    return answer;
  }

  /** Gives up a place (the call was cancelled, or failed otherwise while waiting). */
  leave(place: string): void {
    const waiter = this.byPlace.get(place);
    if (waiter) this.remove(waiter, false);
  }

  private nextTagOf(share: string): number {
    return Math.max(this.virtualTime, this.shares.get(share)?.lastTag ?? 0) + 1;
  }

  /** How many waiters have a tag up to `tag` (all of them arrived before a newcomer of that tag). */
  private countUpTo(tag: number): number {
    let low = 0;
    let high = this.waiters.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.waiters[middle] as Waiter).tag <= tag) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private remove(waiter: Waiter, granted: boolean): void {
    const index = this.waiters.indexOf(waiter);
    if (index >= 0) this.waiters.splice(index, 1);
    this.byPlace.delete(waiter.place);
    if (granted) this.virtualTime = Math.max(this.virtualTime, waiter.tag);
    const record = this.shares.get(waiter.share);
    if (!record) return;
    record.waiting -= 1;
    if (record.waiting <= 0) this.shares.delete(waiter.share);
  }

  private purge(now: number): void {
    if (now < this.nextPurgeAt) return;
    this.nextPurgeAt = now + PURGE_EVERY_MS;
    for (const waiter of this.waiters.filter((w) => now >= w.expiresAt)) this.remove(waiter, false);
  }
}
