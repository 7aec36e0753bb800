// The shared state of one process: nothing to install, nothing shared beyond the process. Also what a
// Redis-backed process falls back to while Redis is out of reach.
import { createHash, randomBytes } from "node:crypto";
import { FairLine } from "./fair-line.js";
import { keyedPersonName } from "./person-names.js";
import type {
  BudgetStore,
  CursorStore,
  Lock,
  RateLimit,
  SecretStore,
  SecretWrite,
  SharedState,
  SlotAsk,
  StoredSecret,
  WindowObservation,
} from "./shared-state.js";
import { newWindow, observeWindow, pauseWindow, type WindowRecord } from "./window.js";

/** Queries whose cursors are kept (least recently used are dropped), and cursors kept per query. */
export const MAX_CURSOR_QUERIES = 500;
export const MAX_CURSORS_PER_QUERY = 200;
/** Budgets kept: far above the credentials in use at once; an idle budget past its window is empty anyway. */
const MAX_BUDGETS = 2000;
/** How often expired secrets no one reads again are dropped (at the next write), so that they free memory. */
const SWEEP_EVERY_MS = 60_000;

/** One budget: its window, and the line of callers waiting for it. */
interface Budget {
  window: WindowRecord;
  line: FairLine;
}

export class MemoryState implements SharedState {
  readonly kind = "memory" as const;
  private readonly budgets = new Map<string, Budget>();
  /** Names the shares of a budget's line: no subject is kept as it is, even in memory. */
  private readonly shareNames = randomBytes(32);
  readonly secrets: MemorySecrets;
  readonly cursors: CursorStore;

  constructor(
    private readonly now: () => number = Date.now,
    /** The part of each remote limit this process may use (1 alone; less as one of a fleet without Redis). */
    private readonly share: () => number = () => 1,
  ) {
    this.secrets = new MemorySecrets(now);
    this.cursors = new MemoryCursors();
  }

  budget(name: string, limit: RateLimit): BudgetStore {
    const budgetOf = () => {
      let budget = this.budgets.get(name);
      if (!budget) {
        budget = { window: newWindow(limit.requests, limit.windowMs), line: new FairLine() };
        this.budgets.set(name, budget);
        if (this.budgets.size > MAX_BUDGETS) this.dropIdleBudgets();
      }
      return budget;
    };
    return {
      take: async (ask: SlotAsk = {}) => {
        const { window, line } = budgetOf();
        const share = keyedPersonName(this.shareNames, ask.share ?? "");
        return line.ask(window, this.now(), { ...ask, share }, this.share());
      },
      leave: async (place: string) => this.budgets.get(name)?.line.leave(place),
      observe: async (observation: WindowObservation, ticket?: number) =>
        observeWindow(budgetOf().window, this.now(), observation, this.share(), ticket),
      pause: async (ms: number) =>
        pauseWindow(budgetOf().window, this.now(), ms, this.share(), limit.windowMs),
    };
  }

  async health() {
    return { ready: true };
  }

  async close(): Promise<void> {}

  /** Drops budgets whose window ended and whose line is empty: what they held no longer counts. */
  private dropIdleBudgets(): void {
    const now = this.now();
    for (const [name, { window, line }] of this.budgets)
      if (now >= window.endsAt && line.waiting === 0) this.budgets.delete(name);
  }
}

interface HeldSecret extends StoredSecret {
  expiresAt: number;
}

export class MemorySecrets implements SecretStore {
  private readonly values = new Map<string, HeldSecret>();
  private readonly locks = new Map<string, { token: symbol; expiresAt: number }>();
  private nextSweepAt: number;

  constructor(private readonly now: () => number) {
    this.nextSweepAt = now() + SWEEP_EVERY_MS;
  }

  /** How many secrets (and locks) are held in memory, expired ones not yet swept included. */
  get held(): number {
    return this.values.size + this.locks.size;
  }

  async read(name: string): Promise<StoredSecret | undefined> {
    const held = this.values.get(name);
    if (!held) return undefined;
    if (this.now() >= held.expiresAt) {
      this.values.delete(name);
      return undefined;
    }
    return { value: held.value, version: held.version };
  }

  async write(name: string, value: string, options: SecretWrite = {}): Promise<boolean> {
    this.sweepNowAndThen();
    if (options.ifVersion !== undefined) {
      const current = await this.read(name);
      if ((current?.version ?? null) !== options.ifVersion) return false;
    }
    const expiresAt = options.ttlMs === undefined ? Number.POSITIVE_INFINITY : this.now() + options.ttlMs;
    this.values.set(name, { value, version: versionOf(value), expiresAt });
    return true;
  }

  async remove(name: string, ifVersion?: string): Promise<boolean> {
    const current = await this.read(name);
    if (!current || (ifVersion !== undefined && current.version !== ifVersion)) return false;
    this.values.delete(name);
    return true;
  }

  /** In memory every removal is confirmed: there is no other copy. */
  removeConfirmed(name: string): Promise<boolean> {
    return this.remove(name);
  }

  async tryLock(name: string, ttlMs: number): Promise<Lock | undefined> {
    this.sweepNowAndThen();
    const held = this.locks.get(name);
    if (held && this.now() < held.expiresAt) return undefined;
    const token = Symbol(name);
    this.locks.set(name, { token, expiresAt: this.now() + ttlMs });
    return {
      release: async () => {
        if (this.locks.get(name)?.token === token) this.locks.delete(name);
      },
    };
  }

  /** Drops what expired, once a minute at most: a secret nobody reads again must not stay forever. */
  private sweepNowAndThen(): void {
    const now = this.now();
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_EVERY_MS;
    for (const [name, held] of this.values) if (now >= held.expiresAt) this.values.delete(name);
    for (const [name, lock] of this.locks) if (now >= lock.expiresAt) this.locks.delete(name);
  }
}

/** A digest naming a value's version; the value cannot be read back from it. */
export function versionOf(value: string): string {
  return createHash("sha256").update(value).digest("base64url").slice(0, 22);
}

class MemoryCursors implements CursorStore {
  private readonly queries = new Map<string, Map<number, string>>();

  async nearest(query: string, offset: number) {
    let best: { position: number; cursor: string } | undefined;
    for (const [position, cursor] of this.cursorsOf(query)) {
      if (position <= offset && position > (best?.position ?? 0)) best = { position, cursor };
    }
    return best;
  }

  async remember(query: string, position: number, cursor: string): Promise<void> {
    const cursors = this.cursorsOf(query);
    cursors.set(position, cursor);
    if (cursors.size > MAX_CURSORS_PER_QUERY) cursors.delete(cursors.keys().next().value as number);
  }

  private cursorsOf(query: string): Map<number, string> {
    const cursors = this.queries.get(query) ?? new Map<number, string>();
    // Re-inserting marks the query as most recently used.
    this.queries.delete(query);
    this.queries.set(query, cursors);
    if (this.queries.size > MAX_CURSOR_QUERIES)
      this.queries.delete(this.queries.keys().next().value as string);
    return cursors;
  }
}
