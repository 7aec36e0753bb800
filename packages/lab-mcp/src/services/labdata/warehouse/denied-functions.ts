// Functions a warehouse query may not call, whatever schema it names: they sleep, read or list the
// server's files, open connections, change settings or locks, signal other sessions, write through
// side doors (large objects, sequences, notifications), or run SQL handed to them as text (which
// would pass the parser's check unseen). Matched on the function's own name, lowercased, so that
// `pg_catalog.pg_sleep`, `PG_SLEEP` and `"pg_sleep"` are all the same call.

const DENIED_NAMES = new Set([
  "set_config",
  "setseed",
  "pg_terminate_backend",
  "pg_cancel_backend",
  "pg_reload_conf",
  "pg_rotate_logfile",
  "pg_notify",
  "pg_stat_file",
  "pg_switch_wal",
  "pg_promote",
  "pg_export_snapshot",
  "pg_import_system_collations",
  "pg_log_backend_memory_contexts",
  "pg_create_restore_point",
  "nextval",
  "setval",
  "currval",
  "lastval",
  "txid_current",
  "pg_current_xact_id",
  "loread",
  "lowrite",
  // SQL as a text argument: the text would run without passing the parser's check.
  "query_to_xml",
  "query_to_xmlschema",
  "query_to_xml_and_xmlschema",
  "cursor_to_xml",
  "cursor_to_xmlschema",
]);

const DENIED_PREFIXES = [
  "pg_sleep",
  "pg_read_",
  "pg_ls_",
  "pg_file_",
  "pg_logdir_",
  "lo_",
  "dblink",
  "pg_advisory_",
  "pg_try_advisory_",
  "pg_stat_reset",
  "pg_create_",
  "pg_drop_",
  "pg_replication_",
  "pg_logical_",
  "pg_backup_",
  "pg_wal_",
  "database_to_xml",
  "schema_to_xml",
];

/** Whether a call of `name` (the function's own name, any schema) is refused. */
export function isDeniedFunction(name: string): boolean {
  const lower = name.toLowerCase();
  return DENIED_NAMES.has(lower) || DENIED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/**
 * Volatile functions of pg_catalog a query may still call: they neither wait nor reach outside the
 * statement (a random sample, the clock, a fresh uuid). Every other volatile one is refused.
 */
export const HARMLESS_VOLATILE = new Set([
  "random",
  "random_normal",
  "clock_timestamp",
  "timeofday",
  "statement_timestamp",
  "gen_random_uuid",
  "uuidv4",
  "uuidv7",
]);
