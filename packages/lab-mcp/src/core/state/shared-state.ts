// What the processes of one server share: rate budgets per credential, secrets (OAuth tokens) with
// compare-and-set and locks, and the cursor cache of offset paging. In memory by default (one process,
// nothing to install); in Redis with REDIS_URL, for replicas behind a load balancer.
import type { SlotAnswer, SlotAsk } from "./fair-line.js";

export type { SlotAnswer, SlotAsk };

/** The rate limit of a remote as configured: the budget a credential starts with. */
export interface RateLimit {
  /** Requests allowed per window. */
  requests: number;
  windowMs: number;
}

/** What a remote answer says of its rate window (x-rate-limit-* headers). */
export interface WindowObservation {
  limit?: number;
  remaining?: number;
  /** Milliseconds until the remote's window resets. */
  resetMs?: number;
}

/**
 * The store of one rate budget (one credential's window on one remote). `take` counts one request in
 * the current window (waitMs 0), or answers how long to wait before asking again, counting nothing;
 * its ticket names the window, for `observe` to hear the request's answer as one of that window.
 * Callers that wait keep a place in the budget's line, served fairly by share (fair-line.ts).
 */
export interface BudgetStore {
  take(ask?: SlotAsk): Promise<SlotAnswer>;
  /** Gives up a place in line (a call cancelled while it waited); a place not asked again expires anyway. */
  leave(place: string): Promise<void>;
  observe(observation: WindowObservation, ticket?: number): Promise<void>;
  /** The remote said "no more" for `ms` (a 429's Retry-After): the window is spent until then. */
  pause(ms: number): Promise<void>;
}

/** A secret as stored: its value and a version tag for compare-and-set (a digest, never the value). */
export interface StoredSecret {
  value: string;
  version: string;
}

export interface SecretWrite {
  /** Dropped after this long. */
  ttlMs?: number;
  /**
   * Compare-and-set: written only when the stored version is this one (null: only when none is
   * stored). Undefined: written whatever is there.
   */
  ifVersion?: string | null;
}

/** Held by one process at a time, until released or until its time runs out (a holder that died). */
export interface Lock {
  release(): Promise<void>;
}

export interface SecretStore {
  read(name: string): Promise<StoredSecret | undefined>;
  /** False when `ifVersion` did not match (another process wrote first). */
  write(name: string, value: string, options?: SecretWrite): Promise<boolean>;
  /** Deletes it (only at `ifVersion` when given); false when nothing was deleted. */
  remove(name: string, ifVersion?: string): Promise<boolean>;
  /**
   * Deletes it where every process reads it; false when there was nothing. Throws
   * UnconfirmedRemovalError when the shared state could not confirm it (Redis out of reach): a
   * removal the user asked for (a sign-out, `forget`) must never look done while the record stays.
   */
  removeConfirmed(name: string): Promise<boolean>;
  /** The lock named `name`, or undefined when another process holds it. */
  tryLock(name: string, ttlMs: number): Promise<Lock | undefined>;
}

/** Cursors of one query by position: where a walk to an offset may start. */
export interface CursorStore {
  /** The known cursor at the largest position <= offset (position > 0), if any. */
  nearest(query: string, offset: number): Promise<{ position: number; cursor: string } | undefined>;
  remember(query: string, position: number, cursor: string): Promise<void>;
}

export interface SharedState {
  readonly kind: "memory" | "redis";
  /** The budget named `name` (e.g. a credential id and the remote's limit name) at `limit` by default. */
  budget(name: string, limit: RateLimit): BudgetStore;
  readonly secrets: SecretStore;
  readonly cursors: CursorStore;
  /** Whether the shared part is reachable now (readiness). */
  health(): Promise<{ ready: boolean; reason?: string }>;
  close(): Promise<void>;
}
