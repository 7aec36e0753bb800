// The warehouse engines the tests run on, and how a test gets warehouse credentials and a `pg`
// connection the way a product would: PostgreSQL from the npm registry always; Debian's `postgresql`
// (.ci/run installs it) or LABDATA_WAREHOUSE_POSTGRES_BIN's as well when present, so each warehouse
// suite runs once per engine.
import { accessSync, constants, readdirSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import type { LabdataEmulator, WarehouseHandle } from "../../packages/emulators/src/labdata/index.js";
import { basic, fetchReply, type Reply } from "./labdata-http.js";

export interface WarehouseEngine {
  /** "embedded" or the bin folder. */
  name: string;
  /** undefined: the npm registry's PostgreSQL. */
  binDir: string | undefined;
}

export const NO_SYSTEM_POSTGRES =
  "no PostgreSQL installed (apt-get install postgresql; or set LABDATA_WAREHOUSE_POSTGRES_BIN): the warehouse tests run on the npm registry's PostgreSQL only";

function runnable(binDir: string): boolean {
  try {
    accessSync(join(binDir, "postgres"), constants.X_OK);
    accessSync(join(binDir, "initdb"), constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** LABDATA_WAREHOUSE_POSTGRES_BIN, else the newest /usr/lib/postgresql/<n>/bin. */
function systemBinDir(): string | undefined {
  const chosen = process.env.LABDATA_WAREHOUSE_POSTGRES_BIN;
  if (chosen) return runnable(chosen) ? chosen : undefined;
  let versions: string[] = [];
  try {
    versions = readdirSync("/usr/lib/postgresql").filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  const newest = versions
    .sort((a, b) => Number(b) - Number(a))
    .find((v) => runnable(`/usr/lib/postgresql/${v}/bin`));
  return newest ? `/usr/lib/postgresql/${newest}/bin` : undefined;
}

const system = systemBinDir();

export const WAREHOUSE_ENGINES: WarehouseEngine[] = [
  { name: "embedded", binDir: undefined },
  ...(system ? [{ name: system, binDir: system }] : []),
];

if (!system) console.warn(NO_SYSTEM_POSTGRES);

export interface Credentials {
  username: string;
  password: string;
  expiresAt: string;
}

/** POST /warehouse-credentials with an API key, as the product does. */
export function requestCredentials(emulator: LabdataEmulator, apiKey: string, body: unknown): Promise<Reply> {
  return fetchReply(`${emulator.tenant("acme").apiUrl}/warehouse-credentials`, {
    method: "POST",
    authorization: basic(apiKey),
    json: body,
  });
}

export async function mintCredentials(
  emulator: LabdataEmulator,
  apiKey: string,
  expiresIn = 600,
): Promise<Credentials> {
  const reply = await requestCredentials(emulator, apiKey, { expiresIn });
  if (reply.status !== 200) throw new Error(`minting failed: ${reply.status} ${reply.text}`);
  return reply.body as Credentials;
}

/** A connected client for a login, TLS verified against the emulator's CA. */
export async function connectAs(
  warehouse: Pick<WarehouseHandle, "host" | "port" | "database" | "caPem">,
  credentials: { username: string; password: string },
  options: { tls?: boolean } = {},
): Promise<pg.Client> {
  const client = new pg.Client({
    host: warehouse.host,
    port: warehouse.port,
    database: warehouse.database,
    user: credentials.username,
    password: credentials.password,
    ssl: options.tls === false ? false : { ca: warehouse.caPem },
  });
  // A server-side end (a terminated session) is an error event; the tests read it from the queries.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}

/** Runs `work` with the superuser's connection, for looking from behind. */
export async function asAdmin<T>(
  warehouse: WarehouseHandle,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client(warehouse.adminConnection);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
