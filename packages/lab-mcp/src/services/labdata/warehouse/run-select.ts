// One checked SELECT on one of the person's connections, inside the READ ONLY transaction the
// warehouse began (warehouse.ts: a statement timeout the query cannot change, since it is one
// statement and SET was refused; times in UTC; always rolled back): volatile functions refused first;
// the rows read through a cursor, at most the row cap plus one (to know whether there were more), no
// further than the byte cap and within the time left; a cell too large to send is left in the
// database and named.
import type pg from "pg";
import { HARMLESS_VOLATILE } from "./denied-functions.js";
import { queryRefused, timedOut } from "./sql-errors.js";
import { type CheckedSelect, refuseSql } from "./sql-guard.js";

/** A cell as the structured copy carries it. */
export type Cell = string | number | boolean | null;

export interface ResultColumn {
  /** The column's name in the result, as SQL gives it. */
  name: string;
  /** The PostgreSQL type, e.g. "double precision". */
  type: string;
  /** Where the column is a table's column: the display name the catalog gives it. */
  display_name?: string;
  /** Where the catalog gives one, the unit of its values, e.g. "ng/µL". */
  unit?: string;
}

export interface SelectResult {
  columns: ResultColumn[];
  rows: Cell[][];
  /** Why fewer rows than the query has may be shown: "rows" (over the row cap), "bytes" (the byte cap). */
  cut?: "rows" | "bytes";
  /** Cells left in the database because each is larger than a cell may be. */
  oversized_cells: number;
}

export interface SelectLimits {
  maxRows: number;
  maxBytes: number;
  timeoutMs: number;
}

/** The rows' text an answer may carry (about 12,000 tokens): past it the answer is cut and says so. */
export const MAX_ANSWER_BYTES = 48_000;

/** A cell larger than this (in PostgreSQL's own size) is not sent: it would only swamp the answer. */
export const MAX_CELL_BYTES = 16_384;

/** The text the user wrote starts this many characters into what is sent (error positions). */
export const WRAP_PREFIX = "SELECT * FROM (\n";

/**
 * The statement as the extended protocol sends it: one statement per message, so that even a text
 * that slipped past the parser's check could never carry a second one.
 */
function extended(text: string, rowMode?: "array"): pg.QueryConfig {
  return {
    text,
    types: TEXT_TYPES,
    queryMode: "extended",
    ...(rowMode ? { rowMode } : {}),
  } as pg.QueryConfig;
}

export async function runSelect(
  client: pg.PoolClient,
  checked: CheckedSelect,
  limits: SelectLimits,
): Promise<SelectResult> {
  const deadline = Date.now() + limits.timeoutMs;
  await refuseVolatile(client, checked);
  const described = await client
    .query(extended(`${WRAP_PREFIX}${checked.text}\n) AS q LIMIT 0`))
    .catch((error: unknown) => {
      throw queryRefused(error, checked, WRAP_PREFIX.length, limits.timeoutMs);
    });
  const columns = await describeColumns(client, described.fields);
  const result = await readRows(client, checked, columns.length, described.fields, limits, deadline);
  return { columns, ...result };
}

/** Volatile functions of the database the statement calls, other than the harmless few: refused. */
async function refuseVolatile(client: pg.PoolClient, checked: CheckedSelect): Promise<void> {
  const names = [...new Set(checked.functions.map((call) => call.name))].filter(
    (name) => !HARMLESS_VOLATILE.has(name),
  );
  if (names.length === 0) return;
  const { rows } = await client.query<{ name: string }>(
    "SELECT DISTINCT p.proname AS name FROM pg_catalog.pg_proc p WHERE p.provolatile = 'v' AND p.proname = ANY($1::text[]) ORDER BY 1",
    [names],
  );
  const first = rows[0];
  if (first) {
    refuseSql(
      `the function ${first.name}() is volatile (it may change something or wait) and is not allowed; ` +
        "use plain columns, aggregates and stable functions",
    );
  }
}

interface CatalogRow {
  i: number;
  type: string | null;
  display_name: string | null;
  unit: string | null;
}

/** Type names, and where a column comes from a table, its display name and unit from the catalog. */
async function describeColumns(client: pg.PoolClient, fields: pg.FieldDef[]): Promise<ResultColumn[]> {
  if (fields.length === 0) return [];
  const catalog = await client.query<{ present: boolean }>(
    // Present and readable by this login: a refused read would end the transaction.
    "SELECT has_table_privilege(to_regclass('column_catalog'), 'SELECT') IS TRUE AS present",
  );
  const withCatalog = catalog.rows[0]?.present === true;
  const units = withCatalog
    ? `(SELECT cc.unit FROM column_catalog cc WHERE cc.table_name = c.relname AND cc.column_name = a.attname LIMIT 1)`
    : "NULL";
  const names = withCatalog
    ? `COALESCE((SELECT cc.display_name FROM column_catalog cc WHERE cc.table_name = c.relname AND cc.column_name = a.attname LIMIT 1), col_description(f.tbl, f.col))`
    : "col_description(f.tbl, f.col)";
  const { rows } = await client.query<CatalogRow>(
    `SELECT f.i, format_type(f.typ, NULL) AS type, ${names} AS display_name, ${units} AS unit
       FROM unnest($1::int[], $2::oid[], $3::oid[], $4::int[]) AS f(i, typ, tbl, col)
       LEFT JOIN pg_catalog.pg_class c ON c.oid = f.tbl
       LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = f.tbl AND a.attnum = f.col
      ORDER BY f.i`,
    [
      fields.map((_, i) => i),
      fields.map((field) => field.dataTypeID),
      fields.map((field) => field.tableID || 0),
      fields.map((field) => field.columnID || 0),
    ],
  );
  return fields.map((field, i) => {
    const row = rows[i];
    const column: ResultColumn = { name: field.name, type: row?.type ?? "unknown" };
    const display = row?.display_name?.trim();
    if (display && field.tableID && display !== field.name) column.display_name = display;
    if (row?.unit?.trim() && field.tableID) column.unit = row.unit.trim();
    return column;
  });
}

/** The rows, through a cursor: at most the row cap plus one, and no further than the byte cap. */
async function readRows(
  client: pg.PoolClient,
  checked: CheckedSelect,
  width: number,
  fields: pg.FieldDef[],
  limits: SelectLimits,
  deadline: number,
): Promise<Omit<SelectResult, "columns">> {
  const aliases = Array.from({ length: width }, (_, i) => `c${i}`);
  const guarded = aliases.map(
    (alias) => `CASE WHEN pg_column_size(q.${alias}) > ${MAX_CELL_BYTES} THEN NULL ELSE q.${alias} END`,
  );
  const flags = aliases.map((alias) => `COALESCE(pg_column_size(q.${alias}) > ${MAX_CELL_BYTES}, false)`);
  const select = [...guarded, `ARRAY[${flags.join(", ")}]::boolean[]`].join(", ");
  const from = width > 0 ? `AS q(${aliases.join(", ")})` : "AS q";
  const prefix = `DECLARE labdata_rows NO SCROLL CURSOR FOR SELECT ${select} FROM (\n`;
  await client
    .query(extended(`${prefix}${checked.text}\n) ${from} LIMIT ${limits.maxRows + 1}`))
    .catch((error: unknown) => {
      throw queryRefused(error, checked, prefix.length, limits.timeoutMs);
    });
  // Batches small enough that one batch of the largest cells stays near the byte cap.
  const batch = Math.max(1, Math.min(100, Math.floor((2 * limits.maxBytes) / Math.max(1, width * 1024))));
  const rows: Cell[][] = [];
  let bytes = 0;
  let oversized = 0;
  for (;;) {
    // Each FETCH is a statement of its own: the time left, not a fresh limit, bounds it.
    const left = deadline - Date.now();
    if (left <= 0) throw timedOut(limits.timeoutMs);
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.round(left))}`);
    const fetched = await client
      .query({ text: `FETCH ${batch} FROM labdata_rows`, rowMode: "array", types: TEXT_TYPES })
      .catch((error: unknown) => {
        throw queryRefused(error, checked, Number.MAX_SAFE_INTEGER, limits.timeoutMs);
      });
    for (const raw of fetched.rows as unknown[][]) {
      if (rows.length === limits.maxRows) return { rows, cut: "rows", oversized_cells: oversized };
      const cut = parseBooleanArray(raw[width]);
      const row = fields.map((field, i) => cellOf(raw[i], field.dataTypeID));
      oversized += cut.filter(Boolean).length;
      bytes += rowBytes(row);
      if (bytes > limits.maxBytes && rows.length > 0)
        return { rows, cut: "bytes", oversized_cells: oversized };
      rows.push(row);
    }
    if (fetched.rows.length < batch) return { rows, oversized_cells: oversized };
  }
}

function rowBytes(row: Cell[]): number {
  return row.reduce<number>(
    (sum, cell) => sum + 3 + (cell === null ? 0 : Buffer.byteLength(String(cell))),
    0,
  );
}

/** Every value as PostgreSQL's text; cellOf turns numbers and booleans into JSON's. */
const TEXT_TYPES = { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig;

const INTEGERS = new Set([20, 21, 23, 26]);
const FLOATS = new Set([700, 701]);
const NUMERIC = 1700;
const BOOLEAN = 16;

/** A value of type `oid` as the structured copy carries it: a number only where it converts exactly. */
export function cellOf(value: unknown, oid: number): Cell {
  if (value === null || value === undefined) return null;
  const text = String(value);
  if (oid === BOOLEAN) return text === "t" || text === "true";
  const number = Number(text);
  if (INTEGERS.has(oid)) return Number.isSafeInteger(number) ? number : text;
  // PostgreSQL writes floats in their shortest exact form; a numeric keeps its text past 15 digits.
  if (FLOATS.has(oid)) return Number.isFinite(number) ? number : text;
  if (oid === NUMERIC) return Number.isFinite(number) && significantDigits(text) <= 15 ? number : text;
  return text;
}

function significantDigits(text: string): number {
  return text.replace(/^-/, "").replace(".", "").replace(/^0+/, "").replace(/0+$/, "").length;
}

function parseBooleanArray(value: unknown): boolean[] {
  if (typeof value !== "string") return [];
  return value
    .replace(/^\{|\}$/g, "")
    .split(",")
    .map((item) => item === "t" || item === "true");
}
