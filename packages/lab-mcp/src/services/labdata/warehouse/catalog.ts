// What the caller can see of the warehouse, read from the database's own catalog on their connection
// (so a table or column their login may not read is not shown): tables and views of the schemas on
// the search path, their columns and types, display names (comments, or the column_catalog view where
// the warehouse has it), units, which column links to which table, and a few sample values.
import type pg from "pg";

export interface CatalogColumn {
  name: string;
  type: string;
  display_name?: string;
  unit?: string;
  /** The table whose id the column holds. */
  links_to?: string;
  /** A value of the first rows, cut short: what the column's values look like. */
  sample?: string;
}

export interface CatalogTable {
  name: string;
  display_name?: string;
  /** What the table holds, where the warehouse says (its table_catalog view). */
  description?: string;
  /** x$raw beside x: the same rows with archived ones. */
  raw_table?: string;
  columns: CatalogColumn[];
}

interface ColumnRow {
  table_name: string;
  table_comment: string | null;
  column_name: string;
  data_type: string;
  column_comment: string | null;
}

interface CatalogViewRow {
  table_name: string;
  column_name: string;
  display_name: string | null;
  unit: string | null;
  links_to: string | null;
}

const RAW = "$raw";
/** The warehouse's own listings of display names: described through its tables, not listed themselves. */
const CATALOG_VIEW = "column_catalog";
const TABLE_VIEW = "table_catalog";
const SAMPLE_CHARACTERS = 40;

/** Every table and view the caller may read, in name order, each with its columns. */
export async function readCatalog(client: pg.PoolClient): Promise<CatalogTable[]> {
  const { rows } = await client.query<ColumnRow>(
    `SELECT c.relname AS table_name, obj_description(c.oid, 'pg_class') AS table_comment,
            a.attname AS column_name, format_type(a.atttypid, a.atttypmod) AS data_type,
            col_description(c.oid, a.attnum) AS column_comment
       FROM pg_catalog.pg_class c
       JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = ANY (current_schemas(false)) AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
        AND has_column_privilege(c.oid, a.attnum, 'SELECT')
      ORDER BY c.relname, a.attnum`,
  );
  const extra = await catalogView(client);
  const described = await tableView(client);
  const tableNames = new Set(rows.map((row) => row.table_name));
  const byTable = new Map<string, CatalogTable>();
  for (const row of rows) {
    let table = byTable.get(row.table_name);
    if (!table) {
      table = { name: row.table_name, columns: [] };
      const display = row.table_comment?.trim();
      if (display && display !== row.table_name) table.display_name = display;
      byTable.set(row.table_name, table);
    }
    const known = extra.get(`${row.table_name}\u0000${row.column_name}`);
    const column: CatalogColumn = { name: row.column_name, type: row.data_type };
    const display = (known?.display_name ?? row.column_comment)?.trim();
    if (display && display !== row.column_name) column.display_name = display;
    if (known?.unit?.trim()) column.unit = known.unit.trim();
    const links = known?.links_to?.trim() || linkByName(row.column_name, tableNames);
    if (links) column.links_to = links;
    table.columns.push(column);
  }
  byTable.delete(CATALOG_VIEW);
  byTable.delete(TABLE_VIEW);
  for (const table of byTable.values()) {
    const said = described.get(table.name);
    if (said?.display_name?.trim() && said.display_name.trim() !== table.name)
      table.display_name = said.display_name.trim();
    if (said?.description?.trim()) table.description = said.description.trim();
  }
  // x$raw is told beside x; alone (x not readable) it is a table of its own.
  for (const name of [...byTable.keys()]) {
    if (!name.endsWith(RAW)) continue;
    const plain = byTable.get(name.slice(0, -RAW.length));
    if (plain) {
      plain.raw_table = name;
      byTable.delete(name);
    }
  }
  return [...byTable.values()];
}

/**
 * Whether `word` (any case; "results" as "result" too) is in the table's name, display name or
 * description, or any of its columns' names.
 */
export function tableMatches(table: CatalogTable, word: string): boolean {
  const needle = word.toLowerCase();
  const stem = needle.length > 3 ? needle.replace(/e?s$/, "") : needle;
  const has = (text: string | undefined) => {
    const lower = text?.toLowerCase();
    return lower !== undefined && (lower.includes(needle) || lower.includes(stem));
  };
  return (
    has(table.name) ||
    has(table.display_name) ||
    has(table.description) ||
    table.columns.some((column) => has(column.name) || has(column.display_name))
  );
}

/** A sample value of each column, from the first rows of the table (as the caller sees them). */
export async function addSamples(client: pg.PoolClient, table: CatalogTable): Promise<void> {
  if (table.columns.length === 0) return;
  const { rows } = await client.query({
    text: `SELECT ${table.columns.map((column) => quoteIdentifier(column.name)).join(", ")} FROM ${quoteIdentifier(table.name)} LIMIT 3`,
    rowMode: "array",
    types: { getTypeParser: () => (value: string) => value } as unknown as pg.CustomTypesConfig,
  });
  table.columns.forEach((column, i) => {
    const value = (rows as unknown[][])
      .map((row) => row[i])
      .find((cell) => typeof cell === "string" && cell !== "");
    if (typeof value === "string") {
      column.sample = value.length > SAMPLE_CHARACTERS ? `${value.slice(0, SAMPLE_CHARACTERS)}…` : value;
    }
  });
}

/** Whether the warehouse has the listing `name` and the caller may read it. */
async function readable(client: pg.PoolClient, name: string): Promise<boolean> {
  const found = await client.query<{ readable: boolean | null }>(
    "SELECT has_table_privilege(to_regclass($1), 'SELECT') AS readable",
    [name],
  );
  return found.rows[0]?.readable === true;
}

/** The table_catalog view's rows (display name, what the table holds), where there is one. */
async function tableView(
  client: pg.PoolClient,
): Promise<Map<string, { display_name: string | null; description: string | null }>> {
  if (!(await readable(client, TABLE_VIEW))) return new Map();
  const { rows } = await client.query<{
    table_name: string;
    display_name: string | null;
    description: string | null;
  }>(`SELECT table_name, display_name, description FROM ${TABLE_VIEW}`);
  return new Map(rows.map((row) => [row.table_name, row]));
}

/** The column_catalog view's rows, where the warehouse has one and the caller may read it. */
async function catalogView(client: pg.PoolClient): Promise<Map<string, CatalogViewRow>> {
  if (!(await readable(client, CATALOG_VIEW))) return new Map();
  const { rows } = await client.query<CatalogViewRow>(
    `SELECT table_name, column_name, display_name, unit, links_to FROM ${CATALOG_VIEW}`,
  );
  return new Map(rows.map((row) => [`${row.table_name}\u0000${row.column_name}`, row]));
}

/** `folder_id` (or `folder_id$`) links to the table `folder` where there is one. */
function linkByName(column: string, tables: Set<string>): string | undefined {
  const target = /^(.+)_id\$?$/.exec(column)?.[1];
  return target && tables.has(target) ? target : undefined;
}

/** A name as a quoted identifier: "x$raw", "user". */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
