// A warehouse table as the emulator declares it: columns with SQL types, display names, units and the
// table an id column points at, who may see a row (by folder, by project, or anyone in the tenant),
// and the rows, made from the tenant's state at each sync.

export type SqlType =
  | "text"
  | "bigint"
  | "double precision"
  | "boolean"
  | "timestamptz"
  | "date"
  | "integer"
  | "jsonb";

export interface ColumnSpec {
  name: string;
  type: SqlType;
  /** Shown to people: "Created at", "Yield". */
  display: string;
  unit?: string | null;
  /** The table whose `id` this column holds. */
  linksTo?: string | null;
}

/** Which rows a login sees: those whose folder or project its user may read, or every row. */
export type RowAccess = { by: "folder" | "project"; column: string } | { by: "tenant" };

export type Cell = string | number | boolean | null | Record<string, string>;
export type Row = Record<string, Cell>;

export interface TableSpec {
  /** The `$raw` table's name without `$raw`; the view without archived rows takes this name. */
  name: string;
  display: string;
  /** What it holds, one line. */
  description: string;
  columns: ColumnSpec[];
  access: RowAccess;
  /** The column that says a row is archived; such rows are left out of the plain view. */
  archivedColumn: string | null;
  rows: Row[];
}

export function column(
  name: string,
  type: SqlType,
  display: string,
  extra: { unit?: string | null; linksTo?: string | null } = {},
): ColumnSpec {
  return { name, type, display, unit: extra.unit ?? null, linksTo: extra.linksTo ?? null };
}

/** Epoch milliseconds as the ISO text PostgreSQL reads into timestamptz. */
export function at(ms: number): string {
  return new Date(ms).toISOString();
}
