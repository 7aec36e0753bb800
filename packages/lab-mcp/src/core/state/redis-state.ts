// The shared state of a fleet: every replica that uses REDIS_URL (and the same MCP_STATE_PREFIX) shares
// rate budgets, secrets, locks and cursors there. Redis lost at run time is not the end of serving:
// each operation falls back to this process's own state (one warning when it happens, one line when
// sharing resumes), where each rate budget is this process's share of the remote's limit (the limit
// divided by the replicas last seen alive), so that the fleet stays under the limit without Redis too.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { Redis, ReplyError } from "ioredis";
import { MemoryState } from "./memory-state.js";
import { keyedPersonName } from "./person-names.js";
import { describeUrl, RedisUnreachableError } from "./redis-common.js";
import {
  FAIR_TAKE,
  LEAVE_LINE,
  OBSERVE_WINDOW,
  PAUSE_WINDOW,
  RELEASE_LOCK,
  REMEMBER_CURSOR,
  REMOVE_SECRET_AT,
  WRITE_SECRET,
} from "./redis-scripts.js";
import type { SecretBox } from "./secret-box.js";
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
import { UnconfirmedRemovalError } from "./unconfirmed-removal.js";

/** A command that takes longer than this counts as Redis being out of reach. */
const COMMAND_TIMEOUT_MS = 1000;
const CONNECT_TIMEOUT_MS = 5000;
/** How often a replica says it is alive, and how long it counts as alive after. */
const HEARTBEAT_MS = 5000;
const ALIVE_FOR_MS = 3 * HEARTBEAT_MS;
const CURSOR_TTL_MS = 60 * 60_000;
const MAX_CURSORS_PER_QUERY = 200;

export interface RedisStateOptions {
  url: string;
  prefix: string;
  box: SecretBox;
  /** Where the one warning (Redis lost) and the one notice (sharing again) go. */
  warn: (message: string) => void;
  /**
   * Names the shares of a budget's line (people, client sessions) in Redis: derived from MCP_STATE_KEY
   * so that every replica names a caller alike and no subject is stored; random when not given.
   */
  shareNamesKey?: Buffer;
}

/** Start-up could not reach Redis: the server does not start (a fleet member alone would overrun limits). */
export { RedisUnreachableError };

type ScriptRunner = (...args: Array<string | number>) => Promise<unknown>;

export class RedisState implements SharedState {
  readonly kind = "redis" as const;
  readonly secrets: SecretStore;
  readonly cursors: CursorStore;
  /** What every operation uses while Redis is out of reach. */
  private readonly local: MemoryState;
  private readonly id = randomUUID();
  private replicasSeen = 1;
  private lost = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly where: string;
  private readonly shareNames: Buffer;

  private constructor(
    private readonly client: Redis,
    private readonly options: RedisStateOptions,
  ) {
    this.where = describeUrl(options.url);
    this.shareNames = options.shareNamesKey ?? randomBytes(32);
    this.local = new MemoryState(Date.now, () => 1 / this.replicasSeen);
    this.secrets = new RedisSecrets(this);
    this.cursors = new RedisCursors(this);
    for (const [name, lua] of Object.entries(SCRIPTS))
      client.defineCommand(name, { numberOfKeys: KEYS_OF[name as keyof typeof SCRIPTS] ?? 1, lua });
    client.on("ready", () => {
      if (!this.lost) return;
      this.lost = false;
      options.warn(`shared state at ${this.where} is reachable again; sharing resumed`);
      void this.beat();
    });
    client.on("close", () => this.markLost("connection closed"));
  }

  /** Connects, or fails with RedisUnreachableError naming where and why. */
  static async open(options: RedisStateOptions): Promise<RedisState> {
    const client = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Keeps trying to come back, at most every two seconds.
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    // Failures are handled where a command fails; unheard, ioredis would print every one.
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.ping();
    } catch (error) {
      client.disconnect();
      throw new RedisUnreachableError(
        `cannot reach Redis at ${describeUrl(options.url)} (${reasonOf(error)}); start it, fix REDIS_URL, or unset REDIS_URL to keep state in this process`,
      );
    }
    const state = new RedisState(client, options);
    await state.beat();
    state.heartbeat = setInterval(() => void state.beat(), HEARTBEAT_MS);
    state.heartbeat.unref();
    return state;
  }

  budget(name: string, limit: RateLimit): BudgetStore {
    const key = this.key("budget", name);
    const defaults = [limit.requests, limit.windowMs];
    const local = () => this.local.budget(name, limit);
    // Its line's four keys, apart from any budget's name.
    const line = ["line", "places", "expiry", "counts"].map((part) => this.key("budget-line", part, name));
    return {
      take: (ask: SlotAsk = {}) =>
        this.attempt(
          async () => {
            const [waitMs, ticket, refused, recheckMs] = (await this.script("fairTake")(
              key,
              ...line,
              ...defaults,
              keyedPersonName(this.shareNames, ask.share ?? ""),
              ask.place ?? "",
              ask.maxWaitMs ?? "",
            )) as [number, number, number, number];
            return {
              waitMs: Number(waitMs),
              ticket: Number(ticket),
              refused: Number(refused) === 1,
              recheckMs: Number(recheckMs),
            };
          },
          () => local().take(ask),
        ),
      leave: (place: string) =>
        this.attempt(
          async () => {
            await this.script("leaveLine")(...line, place);
          },
          () => local().leave(place),
        ),
      observe: (o: WindowObservation, ticket?: number) =>
        this.attempt(
          async () => {
            await this.script("observeWindow")(
              key,
              ...defaults,
              o.limit ?? "",
              o.remaining ?? "",
              o.resetMs ?? "",
              ticket ?? "",
            );
          },
          () => local().observe(o, ticket),
        ),
      pause: (ms: number) =>
        this.attempt(
          async () => {
            await this.script("pauseWindow")(key, ...defaults, ms);
          },
          () => local().pause(ms),
        ),
    };
  }

  async health(): Promise<{ ready: boolean; reason?: string }> {
    try {
      await this.client.ping();
      return { ready: true };
    } catch {
      // The address and the client's error go to the log (markLost), never to an unauthenticated prober.
      return { ready: false, reason: "shared state unreachable" };
    }
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    this.lost = false;
    this.client.removeAllListeners("close");
    await this.client.zrem(this.key("replicas"), this.id).catch(() => undefined);
    this.client.disconnect();
  }

  /** Runs `shared` on Redis; when Redis is out of reach, `fallback` on this process's own state. */
  async attempt<T>(shared: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    if (this.client.status !== "ready") {
      this.markLost(this.client.status);
      return fallback();
    }
    try {
      return await shared();
    } catch (error) {
      // Anything else (a reply error: a script or command of ours) is a mistake to see, not Redis away.
      if (!isUnreachable(error) && this.client.status === "ready") throw error;
      this.markLost(reasonOf(error));
      return fallback();
    }
  }

  key(...parts: string[]): string {
    return `${this.options.prefix}${parts.join(":")}`;
  }

  get redis(): Redis {
    return this.client;
  }

  get box(): SecretBox {
    return this.options.box;
  }

  get fallback(): MemoryState {
    return this.local;
  }

  script(name: keyof typeof SCRIPTS): ScriptRunner {
    const run = (this.client as unknown as Record<string, ScriptRunner>)[name] as ScriptRunner;
    return run.bind(this.client);
  }

  private markLost(why: string): void {
    if (this.lost) return;
    this.lost = true;
    const share = this.replicasSeen > 1 ? ` (1/${this.replicasSeen} of each rate budget)` : "";
    this.options.warn(
      `shared state at ${this.where} is unreachable (${why}); using this process's own state${share} until it returns`,
    );
  }

  /** Says this replica is alive, and counts the replicas alive (for the share of a budget without Redis). */
  private async beat(): Promise<void> {
    if (this.client.status !== "ready") return;
    const key = this.key("replicas");
    const now = Date.now();
    try {
      const [, , count] = (await this.client
        .multi()
        .zadd(key, now, this.id)
        .zremrangebyscore(key, "-inf", now - ALIVE_FOR_MS)
        .zcard(key)
        .exec()) as Array<[Error | null, unknown]>;
      const replicas = Number(count?.[1]);
      if (Number.isSafeInteger(replicas) && replicas >= 1) this.replicasSeen = replicas;
    } catch {
      // Counted again at the next beat.
    }
  }
}

const SCRIPTS = {
  fairTake: FAIR_TAKE,
  leaveLine: LEAVE_LINE,
  observeWindow: OBSERVE_WINDOW,
  pauseWindow: PAUSE_WINDOW,
  writeSecret: WRITE_SECRET,
  removeSecretAt: REMOVE_SECRET_AT,
  releaseLock: RELEASE_LOCK,
  rememberCursor: REMEMBER_CURSOR,
} as const;
/** Keys of the scripts that take more than one: a budget's window and its line's four. */
const KEYS_OF: Partial<Record<keyof typeof SCRIPTS, number>> = { fairTake: 5, leaveLine: 4 };

class RedisSecrets implements SecretStore {
  constructor(private readonly state: RedisState) {}

  read(name: string): Promise<StoredSecret | undefined> {
    return this.state.attempt(
      async () => {
        const [version, sealed] = await this.state.redis.hmget(
          this.state.key("secret", name),
          "version",
          "sealed",
        );
        if (!version || !sealed) return undefined;
        const value = this.state.box.open(name, sealed);
        // Sealed under another MCP_STATE_KEY, or altered: as good as absent.
        return value === undefined ? undefined : { value, version };
      },
      () => this.state.fallback.secrets.read(name),
    );
  }

  write(name: string, value: string, options: SecretWrite = {}): Promise<boolean> {
    const mode = options.ifVersion === undefined ? "any" : options.ifVersion === null ? "absent" : "match";
    return this.state.attempt(
      async () =>
        Number(
          await this.state.script("writeSecret")(
            this.state.key("secret", name),
            mode,
            options.ifVersion ?? "",
            this.state.box.version(name, value),
            this.state.box.seal(name, value),
            options.ttlMs === undefined ? "" : Math.max(1, Math.round(options.ttlMs)),
          ),
        ) === 1,
      () => this.state.fallback.secrets.write(name, value, options),
    );
  }

  remove(name: string, ifVersion?: string): Promise<boolean> {
    const key = this.state.key("secret", name);
    return this.state.attempt(
      async () =>
        ifVersion === undefined
          ? (await this.state.redis.del(key)) > 0
          : Number(await this.state.script("removeSecretAt")(key, ifVersion)) > 0,
      () => this.state.fallback.secrets.remove(name, ifVersion),
    );
  }

  removeConfirmed(name: string): Promise<boolean> {
    const key = this.state.key("secret", name);
    return this.state.attempt(
      async () => (await this.state.redis.del(key)) > 0,
      async () => {
        // Written here during the outage: this copy is the only one. Otherwise Redis keeps it.
        if (await this.state.fallback.secrets.remove(name)) return true;
        throw new UnconfirmedRemovalError();
      },
    );
  }

  tryLock(name: string, ttlMs: number): Promise<Lock | undefined> {
    const key = this.state.key("lock", name);
    return this.state.attempt(
      async () => {
        const token = randomBytes(16).toString("hex");
        const taken = await this.state.redis.set(key, token, "PX", Math.max(1, Math.round(ttlMs)), "NX");
        if (taken !== "OK") return undefined;
        return {
          release: async () => {
            // A lock that outlived its time may be someone else's by now: only ours is deleted.
            await this.state
              .script("releaseLock")(key, token)
              .catch(() => undefined);
          },
        };
      },
      () => this.state.fallback.secrets.tryLock(name, ttlMs),
    );
  }
}

class RedisCursors implements CursorStore {
  constructor(private readonly state: RedisState) {}

  nearest(query: string, offset: number) {
    return this.state.attempt(
      async () => {
        const all = await this.state.redis.hgetall(this.keyOf(query));
        let best: { position: number; cursor: string } | undefined;
        for (const [field, cursor] of Object.entries(all)) {
          const position = Number(field);
          if (position <= offset && position > (best?.position ?? 0)) best = { position, cursor };
        }
        return best;
      },
      () => this.state.fallback.cursors.nearest(query, offset),
    );
  }

  remember(query: string, position: number, cursor: string): Promise<void> {
    return this.state.attempt(
      async () => {
        await this.state.script("rememberCursor")(
          this.keyOf(query),
          position,
          cursor,
          CURSOR_TTL_MS,
          MAX_CURSORS_PER_QUERY,
        );
      },
      () => this.state.fallback.cursors.remember(query, position, cursor),
    );
  }

  /** The query (credential id, path, filters) as a digest: no filter text is left in Redis's keys. */
  private keyOf(query: string): string {
    return this.state.key("cursors", createHash("sha256").update(query).digest("base64url"));
  }
}

/** An error of the connection (closed, refused, timed out, not writable), not of a command. */
function isUnreachable(error: unknown): boolean {
  if (error instanceof ReplyError) return false;
  if ((error as NodeJS.ErrnoException | undefined)?.code) return true;
  const message = error instanceof Error ? error.message : "";
  return /timed out|connection is closed|writeable|max retries|ECONN|EPIPE|socket/i.test(message);
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code) return code;
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]?.slice(0, 120) ?? "unknown";
}
