// The SQL that makes a warehouse database what it is: the role every minted login is a member of,
// the access tables and the functions row-level security asks, what no login may run, and per table
// the `$raw` table with its policy, the view without archived rows, comments and grants.
import type { ColumnSpec, RowAccess, TableSpec } from "./table-spec.js";

export const READER_ROLE = "warehouse_reader";
export const DATABASE = "warehouse";

export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** Functions that write outside the tables' grants, reach the server's files or the network, or
 * change a setting from inside a query (set_config is how SET would hide in a SELECT). */
const REVOKED_FUNCTIONS = [
  "set_config",
  "pg_read_file",
  "pg_read_binary_file",
  "pg_ls_dir",
  "pg_stat_file",
  "pg_ls_logdir",
  "pg_ls_waldir",
  "pg_ls_tmpdir",
  "pg_ls_archive_statusdir",
  "pg_notify",
  "pg_advisory_lock",
  "pg_advisory_lock_shared",
  "pg_advisory_xact_lock",
  "pg_advisory_xact_lock_shared",
  "pg_try_advisory_lock",
  "pg_try_advisory_lock_shared",
  "pg_try_advisory_xact_lock",
  "pg_try_advisory_xact_lock_shared",
  "lo_import",
  "lo_export",
  "lo_create",
  "lo_creat",
  "lo_unlink",
  "lo_from_bytea",
  "lo_put",
  "lo_open",
  "lo_close",
  "lo_get",
  "loread",
  "lowrite",
  "lo_lseek",
  "lo_lseek64",
  "lo_tell",
  "lo_tell64",
  "lo_truncate",
  "lo_truncate64",
];

/** Run once, as the superuser, on the warehouse database. */
export function setupSql(): string {
  return `
CREATE ROLE ${READER_ROLE} NOLOGIN;
REVOKE ALL ON DATABASE ${DATABASE} FROM PUBLIC;
GRANT CONNECT ON DATABASE ${DATABASE} TO ${READER_ROLE};
REVOKE ALL ON DATABASE postgres FROM PUBLIC;
REVOKE ALL ON DATABASE template1 FROM PUBLIC;
REVOKE ALL ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO ${READER_ROLE};

CREATE SCHEMA acl;
REVOKE ALL ON SCHEMA acl FROM PUBLIC;
GRANT USAGE ON SCHEMA acl TO ${READER_ROLE};
CREATE TABLE acl.login (role_name text PRIMARY KEY, principal text NOT NULL);
CREATE TABLE acl.principal_folder (principal text NOT NULL, folder_id text NOT NULL, PRIMARY KEY (principal, folder_id));
CREATE TABLE acl.principal_project (principal text NOT NULL, project_id text NOT NULL, PRIMARY KEY (principal, project_id));
CREATE FUNCTION acl.readable_folder_ids() RETURNS SETOF text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS
  $$ SELECT f.folder_id FROM acl.principal_folder f JOIN acl.login l ON l.principal = f.principal
     WHERE l.role_name = session_user $$;
CREATE FUNCTION acl.readable_project_ids() RETURNS SETOF text
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS
  $$ SELECT p.project_id FROM acl.principal_project p JOIN acl.login l ON l.principal = p.principal
     WHERE l.role_name = session_user $$;
REVOKE ALL ON FUNCTION acl.readable_folder_ids() FROM PUBLIC;
REVOKE ALL ON FUNCTION acl.readable_project_ids() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION acl.readable_folder_ids() TO ${READER_ROLE};
GRANT EXECUTE ON FUNCTION acl.readable_project_ids() TO ${READER_ROLE};

DO $$
DECLARE f regprocedure;
BEGIN
  FOR f IN SELECT p.oid::regprocedure FROM pg_catalog.pg_proc p
           WHERE p.proname = ANY (ARRAY[${REVOKED_FUNCTIONS.map(literal).join(", ")}])
  LOOP
    EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
  END LOOP;
END $$;

CREATE TABLE public.column_catalog (
  table_name text NOT NULL, column_name text NOT NULL, display_name text NOT NULL,
  data_type text NOT NULL, unit text, links_to text, PRIMARY KEY (table_name, column_name));
COMMENT ON TABLE public.column_catalog IS 'Columns of the warehouse tables: display name, type, unit, linked table';
GRANT SELECT ON public.column_catalog TO ${READER_ROLE};
CREATE TABLE public.table_catalog (
  table_name text PRIMARY KEY, display_name text NOT NULL, description text NOT NULL, raw_table text NOT NULL);
COMMENT ON TABLE public.table_catalog IS 'The warehouse tables: display name, what each holds';
GRANT SELECT ON public.table_catalog TO ${READER_ROLE};
`;
}

function policyCondition(access: RowAccess): string {
  if (access.by === "tenant") return "true";
  const fn = access.by === "folder" ? "acl.readable_folder_ids()" : "acl.readable_project_ids()";
  return `${ident(access.column)} IN (SELECT ${fn})`;
}

function columnComment(column: ColumnSpec): string {
  return column.unit ? `${column.display} (${column.unit})` : column.display;
}

export function rawName(table: TableSpec): string {
  return `${table.name}$raw`;
}

/** Creates one table: `$raw` with row-level security, its view, comments, grants. */
export function createTableSql(table: TableSpec): string {
  const raw = ident(rawName(table));
  const view = ident(table.name);
  const columns = table.columns.map((c) => `${ident(c.name)} ${c.type}`).join(", ");
  const where = table.archivedColumn ? ` WHERE NOT ${ident(table.archivedColumn)}` : "";
  const statements = [
    `CREATE TABLE public.${raw} (${columns})`,
    `ALTER TABLE public.${raw} ENABLE ROW LEVEL SECURITY`,
    `CREATE POLICY visible_rows ON public.${raw} FOR SELECT TO ${READER_ROLE} USING (${policyCondition(table.access)})`,
    // security_invoker: the view reads the table as the querying login, so its row policy applies.
    `CREATE VIEW public.${view} WITH (security_invoker = true) AS SELECT * FROM public.${raw}${where}`,
    `COMMENT ON TABLE public.${raw} IS ${literal(`${table.display}, archived included`)}`,
    `COMMENT ON VIEW public.${view} IS ${literal(table.display)}`,
    `GRANT SELECT ON public.${raw}, public.${view} TO ${READER_ROLE}`,
  ];
  for (const column of table.columns) {
    const comment = literal(columnComment(column));
    statements.push(`COMMENT ON COLUMN public.${raw}.${ident(column.name)} IS ${comment}`);
    statements.push(`COMMENT ON COLUMN public.${view}.${ident(column.name)} IS ${comment}`);
  }
  return `${statements.join(";\n")};`;
}

export function dropTableSql(name: string): string {
  return `DROP VIEW IF EXISTS public.${ident(name)}; DROP TABLE IF EXISTS public.${ident(`${name}$raw`)};`;
}

/** What decides whether the tables must be made anew: names, columns and types. */
export function shapeOf(tables: TableSpec[]): string {
  return JSON.stringify(tables.map((t) => [t.name, t.access, t.archivedColumn, t.columns]));
}
