// One tenant's warehouse: its PostgreSQL server, the tables loaded from the tenant and kept in step
// (a debounced full sync after writes, in one transaction, so a query sees one state or the next),
// and the logins minted for callers. Every change to the database goes through one queue, so a sync
// and a mint never interleave.
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { Clock } from "../../common/clock.js";
import type { CertificateAuthority } from "../../common/tls.js";
import type { Actor } from "../auth/permissions.js";
import type { TenantState } from "../state/emulator-state.js";
import { type PrincipalKey, principalKey, readableBy } from "./access.js";
import { ADMIN_ROLE } from "./cluster-template.js";
import {
  createTableSql,
  DATABASE,
  dropTableSql,
  ident,
  literal,
  READER_ROLE,
  setupSql,
  shapeOf,
} from "./ddl.js";
import { type PostgresProcess, startPostgres } from "./postgres-process.js";
import { insertReadable, keyedRows, writeCatalog, writeChanges } from "./sync-writes.js";
import { warehouseTables } from "./tables.js";

const SYNC_DEBOUNCE_MS = 200;
/** What every minted login runs with: backstops, as a session may lower its own timeouts (the
 * product lets only a SELECT through and sets shorter limits per transaction). temp_file_limit is
 * the one a login cannot change: a cross join's sort spills at most that much to disk. */
const LOGIN_SETTINGS: Record<string, string> = {
  default_transaction_read_only: "on",
  statement_timeout: "30s",
  idle_in_transaction_session_timeout: "60s",
  idle_session_timeout: "15min",
  temp_file_limit: "1GB",
  search_path: "public",
};
const LOGIN_CONNECTION_LIMIT = 10;

export interface WarehouseLogin {
  id: string;
  username: string;
  principal: PrincipalKey;
  userId: string;
  createdAt: number;
  /** By the emulator clock. */
  expiresAt: number;
}

export interface MintedCredentials {
  username: string;
  password: string;
  /** ISO 8601, by the emulator clock. */
  expiresAt: string;
}

/** The warehouse was stopped (WarehouseHandle.stop): the API answers 503 for credentials. */
export class WarehouseUnavailable extends Error {}

export class TenantWarehouse {
  readonly logins: WarehouseLogin[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #shape = "";
  /** What the database holds: table -> row key -> the row's JSON. */
  #rows = new Map<string, Map<string, string>>();
  #requested = 0;
  #done = 0;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  private constructor(
    private readonly tenant: TenantState,
    private readonly server: PostgresProcess,
    private readonly pool: pg.Pool,
    private readonly clock: Clock,
    readonly caPem: string,
  ) {}

  static async start(
    tenant: TenantState,
    options: { ca: CertificateAuthority; clock: Clock; binDir?: string },
  ): Promise<TenantWarehouse> {
    const server = await startPostgres({ ca: options.ca, binDir: options.binDir });
    const connection = (database: string) => ({
      host: server.host,
      port: server.port,
      user: ADMIN_ROLE,
      password: server.adminPassword,
      database,
      ssl: { ca: options.ca.certPem },
    });
    let pool: pg.Pool | undefined;
    try {
      const bootstrap = new pg.Client(connection("postgres"));
      await bootstrap.connect();
      try {
        await bootstrap.query(`CREATE DATABASE ${DATABASE}`);
      } finally {
        await bootstrap.end();
      }
      pool = new pg.Pool({ ...connection(DATABASE), max: 2 });
      // An idle client's error (the server stopping) must not end the emulator's process.
      pool.on("error", () => {});
      await pool.query(setupSql());
      const warehouse = new TenantWarehouse(tenant, server, pool, options.clock, options.ca.certPem);
      await warehouse.#enqueue(() => warehouse.#sync());
      return warehouse;
    } catch (error) {
      await pool?.end();
      await server.close();
      throw error;
    }
  }

  get host(): string {
    return this.server.host;
  }

  get port(): number {
    return this.server.port;
  }

  get engine(): string {
    return this.server.engine;
  }

  get database(): string {
    return DATABASE;
  }

  get url(): string {
    return `postgres://${this.server.host}:${this.server.port}/${DATABASE}`;
  }

  /** The superuser's settings, for tests that look at the database from behind. */
  get adminConnection(): pg.ClientConfig {
    return {
      host: this.server.host,
      port: this.server.port,
      user: ADMIN_ROLE,
      password: this.server.adminPassword,
      database: DATABASE,
      ssl: { ca: this.caPem },
    };
  }

  /** A write happened: sync shortly, once for a burst. */
  changed(): void {
    if (this.#stopped) return;
    this.#requested++;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#syncPending().catch((error: unknown) => {
        process.stderr.write(
          `labdata emulator: warehouse sync of ${this.tenant.name} failed: ${String(error)}\n`,
        );
      });
    }, SYNC_DEBOUNCE_MS);
  }

  /** Resolves once every write notified so far is in the database. */
  async synced(): Promise<void> {
    const wanted = this.#requested;
    while (this.#done < wanted) {
      if (this.#stopped) throw new WarehouseUnavailable("the warehouse is stopped");
      clearTimeout(this.#timer);
      this.#timer = undefined;
      await this.#syncPending();
    }
  }

  async #syncPending(): Promise<void> {
    const wanted = this.#requested;
    await this.#enqueue(() => this.#sync());
    this.#done = Math.max(this.#done, wanted);
  }

  #enqueue<T>(job: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(() => {
      if (this.#stopped) throw new WarehouseUnavailable("the warehouse is stopped");
      return job();
    });
    this.#queue = next.catch(() => undefined);
    return next;
  }

  // The state is read in one go (no await between), then written in one transaction: only the rows
  // that changed since the last sync, or everything when the tables' shape changed.
  async #sync(): Promise<void> {
    const tables = warehouseTables(this.tenant);
    const shape = shapeOf(tables);
    const fresh = shape !== this.#shape;
    const rows = new Map(tables.map((table) => [table.name, keyedRows(table)]));
    const principals = [...new Set(this.logins.map((login) => login.principal))];
    const readable = principals.map((key) => ({ key, ...readableBy(this.tenant, key) }));
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      if (fresh) {
        for (const name of this.#rows.keys()) await client.query(dropTableSql(name));
        for (const table of tables) await client.query(createTableSql(table));
        await writeCatalog(client, tables);
      }
      for (const table of tables) {
        const now = rows.get(table.name) ?? new Map<string, string>();
        await writeChanges(client, table, fresh ? new Map() : (this.#rows.get(table.name) ?? new Map()), now);
      }
      await client.query("DELETE FROM acl.principal_folder");
      await client.query("DELETE FROM acl.principal_project");
      for (const { key, folders, projects } of readable) await insertReadable(client, key, folders, projects);
      await client.query("COMMIT");
      this.#shape = shape;
      this.#rows = rows;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Creates a login that authenticates as the actor and sees what the actor may read. */
  mint(actor: Actor, expiresInSec: number): Promise<MintedCredentials> {
    const principal = principalKey(actor);
    const handle = actor.user.handle
      .toLowerCase()
      .replace(/[^a-z0-9_]/g, "_")
      .slice(0, 40);
    const username = `u$${handle}_${randomBytes(6).toString("hex")}`;
    const password = randomBytes(18).toString("base64url");
    const now = this.clock.now();
    const expiresAt = now + expiresInSec * 1000;
    // PostgreSQL checks VALID UNTIL against its own (real) clock.
    const validUntil = new Date(Date.now() + expiresInSec * 1000).toISOString();
    const { folders, projects } = readableBy(this.tenant, principal);
    return this.#enqueue(async () => {
      const client = await this.pool.connect();
      try {
        await client.query("BEGIN");
        await client.query(
          `CREATE ROLE ${ident(username)} LOGIN INHERIT NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS ` +
            `CONNECTION LIMIT ${LOGIN_CONNECTION_LIMIT} PASSWORD ${literal(password)} VALID UNTIL ${literal(validUntil)} ` +
            `IN ROLE ${READER_ROLE}`,
        );
        for (const [name, value] of Object.entries(LOGIN_SETTINGS)) {
          await client.query(`ALTER ROLE ${ident(username)} SET ${name} = ${literal(value)}`);
        }
        await client.query("INSERT INTO acl.login (role_name, principal) VALUES ($1, $2)", [
          username,
          principal,
        ]);
        await client.query("DELETE FROM acl.principal_folder WHERE principal = $1", [principal]);
        await client.query("DELETE FROM acl.principal_project WHERE principal = $1", [principal]);
        await insertReadable(client, principal, folders, projects);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
      this.logins.push({
        id: `whcred_${randomBytes(8).toString("hex")}`,
        username,
        principal,
        userId: actor.user.id,
        createdAt: now,
        expiresAt,
      });
      return { username, password, expiresAt: new Date(expiresAt).toISOString() };
    });
  }

  /** Ends every minted login now, as expiry does: new connections are refused; with
   * terminateSessions, open sessions are ended too. */
  expireLogins(options: { terminateSessions?: boolean } = {}): Promise<void> {
    return this.#enqueue(async () => {
      const names = this.logins.map((login) => login.username);
      for (const name of names) await this.pool.query(`ALTER ROLE ${ident(name)} VALID UNTIL '1970-01-01'`);
      for (const login of this.logins) login.expiresAt = Math.min(login.expiresAt, this.clock.now());
      if (options.terminateSessions && names.length > 0) {
        await this.pool.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = ANY ($1::text[])",
          [names],
        );
        // Termination is a signal: wait (briefly) until the sessions are gone, so that the caller's
        // next step meets a closed connection, not one about to close.
        for (let attempt = 0; attempt < 50; attempt++) {
          const { rows } = await this.pool.query<{ open: number }>(
            "SELECT count(*)::int AS open FROM pg_stat_activity WHERE usename = ANY ($1::text[])",
            [names],
          );
          if (rows[0]?.open === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    });
  }

  /** Stops the server, as an outage would; the emulator's API keeps answering. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    await this.#queue;
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.pool.end().catch(() => undefined);
    await this.server.close();
  }

  get stopped(): boolean {
    return this.#stopped;
  }
}
