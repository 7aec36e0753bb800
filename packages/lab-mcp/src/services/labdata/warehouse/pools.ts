// Connections to the warehouse, pooled per person (by the same keyed name as their login) with a
// small cap, over TLS whose certificate is verified against Node's trust store (NODE_EXTRA_CA_CERTS
// adds a company's or the tenant's CA, as on the HTTPS side). A person's pool uses only their login:
// a new login replaces the pool; an idle connection is closed, and an idle pool dropped.
import pg from "pg";
import type { WarehouseAddress } from "./address.js";
import type { WarehouseLogin } from "./logins.js";

/** Connections one person may hold at once: a second query runs while one is slow, no more. */
const PER_PERSON = 2;
/** An unused connection is closed after this long. */
const IDLE_CONNECTION_MS = 30_000;
/** A pool nobody used for this long is ended. */
const IDLE_POOL_MS = 5 * 60_000;

interface PersonPool {
  username: string;
  pool: pg.Pool;
  usedAt: number;
}

export class ConnectionPools {
  private readonly pools = new Map<string, PersonPool>();
  private readonly listened = new WeakSet<pg.PoolClient>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly address: WarehouseAddress,
    /** How long connecting may take. */
    private readonly connectTimeoutMs: number,
  ) {}

  /** A connection of the person named `owner`, as `login`; release it when done. */
  async connect(owner: string, login: WarehouseLogin): Promise<pg.PoolClient> {
    let entry = this.pools.get(owner);
    if (entry && entry.username !== login.username) {
      this.pools.delete(owner);
      void entry.pool.end().catch(() => undefined);
      entry = undefined;
    }
    if (!entry) {
      entry = { username: login.username, pool: this.newPool(login), usedAt: Date.now() };
      this.pools.set(owner, entry);
      this.sweepLater();
    }
    entry.usedAt = Date.now();
    const client = await entry.pool.connect();
    // The pool listens to idle connections only: one ended under a query (the server restarted, an
    // admin ended the session) must not end the process; the query's own error tells the call.
    if (!this.listened.has(client)) {
      client.on("error", () => undefined);
      this.listened.add(client);
    }
    return client;
  }

  /** Ends the pool of `owner` (a sign-out). */
  async drop(owner: string): Promise<void> {
    const entry = this.pools.get(owner);
    if (!entry) return;
    this.pools.delete(owner);
    await entry.pool.end().catch(() => undefined);
  }

  /** Ends every pool (the server stops). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((entry) => entry.pool.end().catch(() => undefined)));
  }

  private newPool(login: WarehouseLogin): pg.Pool {
    const pool = new pg.Pool({
      host: this.address.host,
      port: this.address.port,
      database: this.address.database,
      user: login.username,
      password: login.password,
      // Verified against Node's CAs (and NODE_EXTRA_CA_CERTS); never a plain connection.
      ssl: { rejectUnauthorized: true },
      max: PER_PERSON,
      idleTimeoutMillis: IDLE_CONNECTION_MS,
      connectionTimeoutMillis: this.connectTimeoutMs,
      // The statement timeout ends a slow query in the database; this ends a warehouse that went silent.
      query_timeout: this.connectTimeoutMs + 5_000,
      allowExitOnIdle: true,
      application_name: "labdata-mcp",
    });
    // A connection that breaks while idle must not end the process.
    pool.on("error", () => undefined);
    return pool;
  }

  private sweepLater(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const [owner, entry] of this.pools) {
        if (now - entry.usedAt < IDLE_POOL_MS || entry.pool.totalCount > entry.pool.idleCount) continue;
        this.pools.delete(owner);
        void entry.pool.end().catch(() => undefined);
      }
      if (this.pools.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, 60_000);
    this.sweeper.unref();
  }
}
