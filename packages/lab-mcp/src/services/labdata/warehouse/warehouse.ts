// The tenant's data warehouse, as the two warehouse tools use it: a checked statement run on the
// caller's own connection, and the catalog as the caller sees it. Whose connection is decided by the
// platform credential on the call, decided at the tool-call boundary (the person's key, their exchanged
// token, the operator's app): the login is minted with it, kept under a keyed name derived from it, and
// the pool is theirs alone.
// A login the warehouse refuses (expired, revoked) is renewed once, silently.
import type pg from "pg";
import { ActionableError, ConnectionError, InvalidInputError } from "../../../core/errors.js";
import { apiPath } from "../../../core/http/api-path.js";
import type { RequestOptions } from "../../../core/http/remote-client.js";
import type { LabdataCall } from "../call.js";
import { type WarehouseAddress, whereOf } from "./address.js";
import { addSamples, type CatalogTable, readCatalog, tableMatches } from "./catalog.js";
import { LOGIN_SECONDS, type Mint, mintedSchema, type StoredLogin, type WarehouseLogins } from "./logins.js";
import { ConnectionPools } from "./pools.js";
import { MAX_ANSWER_BYTES, runSelect, type SelectResult } from "./run-select.js";
import {
  connectionFailed,
  endsConnection,
  isLoginRefused,
  isPostgresError,
  queryRefused,
} from "./sql-errors.js";
import { checkSelect } from "./sql-guard.js";

/** What the warehouse needs of the platform's client: its request path (the login is minted with the call's credential). */
export interface PlatformCalls {
  send<T>(options: RequestOptions<T>, ctx: LabdataCall): Promise<{ body: T }>;
}

export const NO_ADDRESS =
  "The warehouse's address is not known for this tenant. Set LABDATA_WAREHOUSE_URL to it (postgres://host:5432/warehouse, " +
  "from your tenant's admin; the warehouse is a feature Benchling enables per tenant) and restart the server";

export interface CatalogPage {
  total: number;
  tables: CatalogTable[];
}

export class Warehouse {
  private readonly pools: ConnectionPools | undefined;

  constructor(
    private readonly platform: PlatformCalls,
    private readonly options: {
      address: WarehouseAddress | undefined;
      logins: WarehouseLogins;
      /** How long a statement (and connecting) may take: MCP_REQUEST_TIMEOUT. */
      timeoutMs: number;
    },
  ) {
    this.pools = options.address && new ConnectionPools(options.address, options.timeoutMs);
  }

  get address(): WarehouseAddress | undefined {
    return this.options.address;
  }

  /** One read-only SELECT, checked before anything is sent, at most `maxRows` rows. */
  async query(sql: string, maxRows: number, ctx: LabdataCall): Promise<SelectResult> {
    this.requireAddress();
    const checked = await checkSelect(sql);
    const { timeoutMs } = this.options;
    return this.withClient(ctx, (client) =>
      runSelect(client, checked, { maxRows, maxBytes: MAX_ANSWER_BYTES, timeoutMs }),
    );
  }

  /**
   * The tables the caller can read whose names or columns hold `word`, from `offset`: at most `limit`,
   * and no more than `fits` accepts (the answer's size), each with sample values.
   */
  async describe(
    word: string | undefined,
    offset: number,
    limit: number,
    fits: (tables: CatalogTable[]) => boolean,
    ctx: LabdataCall,
  ): Promise<CatalogPage> {
    this.requireAddress();
    return this.withClient(ctx, async (client) => {
      const all = await readCatalog(client);
      const matching = word ? all.filter((table) => tableMatches(table, word)) : all;
      const tables: CatalogTable[] = [];
      for (const table of matching.slice(offset, offset + limit)) {
        await sampled(client, table);
        if (tables.length > 0 && !fits([...tables, table])) break;
        tables.push(table);
      }
      return { total: matching.length, tables };
    });
  }

  /** `check`: a login minted for the credential, a connection, SELECT 1. */
  async ping(ctx: LabdataCall): Promise<void> {
    this.requireAddress();
    await this.withClient(ctx, (client) => client.query("SELECT 1"));
  }

  /** Forgets the login minted for `identity` and ends its connections here (a sign-out); false when none. */
  async forget(identity: string): Promise<boolean> {
    const { logins } = this.options;
    await this.pools?.drop(logins.nameOf(identity));
    return logins.forget(identity).catch(() => false);
  }

  /** Ends every connection (the server stops). */
  close(): Promise<void> {
    return this.pools?.close() ?? Promise.resolve();
  }

  private requireAddress(): WarehouseAddress {
    if (!this.options.address) throw new ActionableError(NO_ADDRESS);
    return this.options.address;
  }

  /**
   * `work` on one of the caller's connections, as their login (renewed once if refused), inside a
   * READ ONLY transaction with the time limit and times in UTC, always rolled back.
   */
  private async withClient<T>(ctx: LabdataCall, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const address = this.requireAddress();
    const { timeoutMs } = this.options;
    const { credential } = ctx;
    // A person's exchanged tokens change as they are renewed; their budget id names the person.
    const identity = credential.budgetId ?? credential.id;
    const mint = () => this.mint(ctx);
    const client = await this.begin(identity, mint, address);
    let broken: Error | undefined;
    let done = false;
    // The agent cancelled the call (or its connection closed): the statement stops in the database
    // too, rather than running on to the time limit.
    const cancel = () => {
      if (!done) void this.cancelBackend(identity, mint, address, client, () => done);
    };
    ctx.signal?.addEventListener("abort", cancel, { once: true });
    try {
      return await work(client);
    } catch (error) {
      if (error instanceof ActionableError || error instanceof InvalidInputError) throw error;
      if (isPostgresError(error) && !endsConnection(error.code)) throw databaseRefused(error, timeoutMs);
      // The connection itself failed or was ended: it is not given back to the pool.
      broken = error instanceof Error ? error : new Error(String(error));
      throw connectionLost(error, address, timeoutMs);
    } finally {
      done = true;
      ctx.signal?.removeEventListener("abort", cancel);
      if (!broken) await client.query("ROLLBACK").catch(() => undefined);
      client.release(broken);
    }
  }

  /**
   * Stops the statement running on `busy` (pg_cancel_backend, from another connection of the same
   * person's login, which may cancel its own sessions only), unless its call ended meanwhile. Best
   * effort: the statement timeout bounds it anyway.
   */
  private async cancelBackend(
    identity: string,
    mint: Mint,
    address: WarehouseAddress,
    busy: pg.PoolClient,
    ended: () => boolean,
  ): Promise<void> {
    // pg sets processID from the server's BackendKeyData; its type declarations leave it out.
    const pid = (busy as pg.PoolClient & { processID?: number }).processID;
    if (typeof pid !== "number") return;
    const other = await this.connect(identity, mint, address).catch(() => undefined);
    if (!other) return;
    // Nothing to stop, or the warehouse refused: the time limit still ends the statement.
    if (!ended()) await other.query("SELECT pg_cancel_backend($1)", [pid]).catch(() => undefined);
    other.release();
  }

  /**
   * A connection of the person's pool with its transaction begun. One the warehouse ended while it sat
   * idle in the pool (a restart, an expired login's sessions ended) is found out here, before any of
   * the call's work, and replaced once.
   */
  private async begin(identity: string, mint: Mint, address: WarehouseAddress): Promise<pg.PoolClient> {
    const { timeoutMs } = this.options;
    for (let attempt = 0; ; attempt++) {
      const client = await this.connect(identity, mint, address);
      try {
        await client.query("BEGIN READ ONLY");
        await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(timeoutMs))}`);
        await client.query("SET LOCAL TimeZone = 'UTC'");
        return client;
      } catch (error) {
        const ended = !isPostgresError(error) || endsConnection(error.code);
        client.release(ended ? (error instanceof Error ? error : new Error(String(error))) : undefined);
        if (ended && attempt === 0) continue;
        throw ended ? connectionLost(error, address, timeoutMs) : databaseRefused(error, timeoutMs);
      }
    }
  }

  /** A connection as the person's login: the stored one, or one minted anew if the warehouse refuses it. */
  private async connect(identity: string, mint: Mint, address: WarehouseAddress): Promise<pg.PoolClient> {
    const pools = this.pools as ConnectionPools;
    const { logins, timeoutMs } = this.options;
    const owner = logins.nameOf(identity);
    const login: StoredLogin = await logins.current(identity, mint);
    try {
      return await pools.connect(owner, login);
    } catch (error) {
      if (!isLoginRefused(error)) throw connectionFailed(error, address, timeoutMs);
    }
    const renewed = await logins.renew(identity, login, mint);
    return pools.connect(owner, renewed).catch((again: unknown) => {
      throw isLoginRefused(again)
        ? new ActionableError(
            `The warehouse ${whereOf(address)} refused the login the platform minted for you just now. ` +
              "Check that LABDATA_WAREHOUSE_URL is the warehouse of the tenant in LABDATA_BASE_URL",
          )
        : connectionFailed(again, address, timeoutMs);
    });
  }

  /** A login for the caller, minted by the platform with the caller's own credential. */
  private async mint(ctx: LabdataCall) {
    const { body } = await this.platform.send(
      {
        method: "POST",
        path: apiPath`api/v2/warehouse-credentials`,
        body: { expiresIn: LOGIN_SECONDS },
        schema: mintedSchema,
        idempotent: false,
      },
      ctx,
    );
    return body;
  }
}

/** A table's sample values; a table that cannot be sampled is still described. */
async function sampled(client: pg.PoolClient, table: CatalogTable): Promise<void> {
  await client.query("SAVEPOINT sample");
  try {
    await addSamples(client, table);
    await client.query("RELEASE SAVEPOINT sample");
  } catch (error) {
    if (!isPostgresError(error) || error.code === "57014") throw error;
    await client.query("ROLLBACK TO SAVEPOINT sample");
  }
}

/** A connection that failed or was ended under the call's work. */
function connectionLost(error: unknown, address: WarehouseAddress, timeoutMs: number): unknown {
  if (isPostgresError(error))
    return new ConnectionError(`The warehouse ended the connection (SQLSTATE ${error.code})`);
  return connectionFailed(error, address, timeoutMs);
}

function databaseRefused(error: unknown, timeoutMs: number): unknown {
  if (!isPostgresError(error)) return error;
  const none = { text: "", functions: [], source: "", offset: 0 };
  return queryRefused(error, none, Number.MAX_SAFE_INTEGER, timeoutMs);
}
