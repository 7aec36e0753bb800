// What one sync writes, in the sync's transaction: a table's changed rows (by id, or the whole table
// when its rows have none), the catalog of tables and columns, and who may read which folders and
// projects.
import type pg from "pg";
import type { PrincipalKey } from "./access.js";
import { ident, rawName } from "./ddl.js";
import type { TableSpec } from "./table-spec.js";

export async function insertReadable(
  client: pg.PoolClient,
  principal: PrincipalKey,
  folders: string[],
  projects: string[],
): Promise<void> {
  await client.query("INSERT INTO acl.principal_folder SELECT $1, unnest($2::text[])", [principal, folders]);
  await client.query("INSERT INTO acl.principal_project SELECT $1, unnest($2::text[])", [
    principal,
    projects,
  ]);
}

/** A table's rows by key (the id, or the whole row for a table without one) as JSON. */
export function keyedRows(table: TableSpec): Map<string, string> {
  const keyed = new Map<string, string>();
  for (const row of table.rows) {
    const json = JSON.stringify(row);
    keyed.set(typeof row.id === "string" ? row.id : json, json);
  }
  return keyed;
}

/** Deletes the rows that went or changed and inserts the new and changed ones. */
export async function writeChanges(
  client: pg.PoolClient,
  table: TableSpec,
  before: Map<string, string>,
  after: Map<string, string>,
): Promise<void> {
  const raw = `public.${ident(rawName(table))}`;
  const hasId = table.columns.some((c) => c.name === "id");
  const gone = [...before.keys()].filter((key) => after.get(key) !== before.get(key));
  const added = [...after].filter(([key, json]) => before.get(key) !== json).map(([, json]) => json);
  if (gone.length > 0) {
    if (hasId) await client.query(`DELETE FROM ${raw} WHERE id = ANY ($1::text[])`, [gone]);
    else {
      // Rows without an id are told apart by their whole content: the table is written anew.
      await client.query(`DELETE FROM ${raw}`);
      added.splice(0, added.length, ...after.values());
    }
  }
  if (added.length > 0) {
    await client.query(`INSERT INTO ${raw} SELECT * FROM json_populate_recordset(NULL::${raw}, $1::json)`, [
      `[${added.join(",")}]`,
    ]);
  }
}

/** The catalog of tables and columns, which changes only with the tables' shape. */
export async function writeCatalog(client: pg.PoolClient, tables: TableSpec[]): Promise<void> {
  const columns = tables.flatMap((table) =>
    table.columns.map((c) => ({
      table_name: table.name,
      column_name: c.name,
      display_name: c.display,
      data_type: c.type,
      unit: c.unit ?? null,
      links_to: c.linksTo ?? null,
    })),
  );
  const described = tables.map((t) => ({
    table_name: t.name,
    display_name: t.display,
    description: t.description,
    raw_table: rawName(t),
  }));
  await client.query("DELETE FROM public.column_catalog");
  await client.query(
    "INSERT INTO public.column_catalog SELECT * FROM json_populate_recordset(NULL::public.column_catalog, $1::json)",
    [JSON.stringify(columns)],
  );
  await client.query("DELETE FROM public.table_catalog");
  await client.query(
    "INSERT INTO public.table_catalog SELECT * FROM json_populate_recordset(NULL::public.table_catalog, $1::json)",
    [JSON.stringify(described)],
  );
}
