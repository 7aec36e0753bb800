// The check a warehouse query passes before anything is sent: PostgreSQL's own parser (libpg_query,
// compiled to WebAssembly) reads it, and the whole tree is walked. One statement, a plain SELECT (or
// WITH ... SELECT): no data-modifying CTE, no locking clause, no SELECT INTO, no call of a function
// that sleeps, reads files, opens connections or changes settings (denied-functions.ts). The
// database enforces read-only too (a READ ONLY transaction, the login's grants); this check answers
// first, with a message the agent can act on, and keeps what the database would only refuse late.
import { parse } from "libpg-query";
import { InvalidInputError } from "../../../core/errors.js";
import { isDeniedFunction } from "./denied-functions.js";

export const QUERY_TOOL = "labdata_query_warehouse";

/** A function the statement calls: its schema when named, and its own name, lowercased. */
export interface CalledFunction {
  schema?: string;
  name: string;
}

/** A statement that passed: its text alone (no trailing ";"), and the functions it calls. */
export interface CheckedSelect {
  text: string;
  functions: CalledFunction[];
  /** What the agent sent, and where (in characters) the statement starts in it: error positions. */
  source: string;
  offset: number;
}

const WRITES: Record<string, string> = {
  InsertStmt: "INSERT",
  UpdateStmt: "UPDATE",
  DeleteStmt: "DELETE",
  MergeStmt: "MERGE",
};

/** Refuses the statement, saying what to change. */
export function refuseSql(problem: string): never {
  throw sqlRefusal(problem);
}

/** The input error that names what to change in the statement. */
function sqlRefusal(problem: string): InvalidInputError {
  return new InvalidInputError(
    `Error: Invalid input for ${QUERY_TOOL}: sql: ${problem}. Correct the statement and call the tool again.`,
  );
}

/** Line and column (1-based) of a character offset (0-based) in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

/** The statement, checked; throws InvalidInputError saying what to change. */
export async function checkSelect(sql: string): Promise<CheckedSelect> {
  let tree: { stmts?: Array<{ stmt?: Record<string, unknown>; stmt_location?: number; stmt_len?: number }> };
  try {
    // The error's cursorPosition counts characters from 0; a statement's location counts UTF-8 bytes.
    tree = (await parse(sql)) as typeof tree;
  } catch (error) {
    const details = (error as { sqlDetails?: { message?: string; cursorPosition?: number } }).sqlDetails;
    const message = details?.message ?? (error instanceof Error ? error.message : "it does not parse");
    const at = details?.cursorPosition === undefined ? "" : positionText(sql, details.cursorPosition);
    throw sqlRefusal(`PostgreSQL's parser refused it: ${message}${at}`);
  }
  const statements = (tree.stmts ?? []).filter((entry) => entry.stmt);
  if (statements.length === 0) refuseSql("it holds no statement; send one SELECT");
  if (statements.length > 1) {
    refuseSql(`it holds ${statements.length} statements; send one SELECT (or WITH ... SELECT) per call`);
  }
  const only = statements[0] as (typeof statements)[number];
  const kind = Object.keys(only.stmt ?? {})[0] ?? "";
  if (kind !== "SelectStmt") {
    refuseSql(
      `${statementName(kind)} is not allowed: the warehouse answers one read-only SELECT (or WITH ... SELECT)`,
    );
  }
  const functions: CalledFunction[] = [];
  walk(only.stmt, functions);
  const location = only.stmt_location ?? 0;
  return {
    text: statementText(sql, location, only.stmt_len),
    functions,
    source: sql,
    offset: Buffer.from(sql, "utf8").subarray(0, location).toString("utf8").length,
  };
}

/** " at line L, column C" for a character offset. */
export function positionText(text: string, offset: number): string {
  const { line, column } = lineAndColumn(text, offset);
  return ` (at line ${line}, column ${column})`;
}

/** The statement's own text, without a trailing ";" (the parser's location and length are in bytes). */
function statementText(sql: string, location: number, length: number | undefined): string {
  const bytes = Buffer.from(sql, "utf8");
  const end = length === undefined || length === 0 ? bytes.length : location + length;
  return bytes.subarray(location, end).toString("utf8").replace(/;\s*$/, "");
}

function statementName(kind: string): string {
  const known: Record<string, string> = {
    ...WRITES,
    VariableSetStmt: "SET",
    VariableShowStmt: "SHOW",
    TransactionStmt: "A transaction statement",
    CopyStmt: "COPY",
    DoStmt: "DO",
    CallStmt: "CALL",
    ExplainStmt: "EXPLAIN",
    ExecuteStmt: "EXECUTE",
    PrepareStmt: "PREPARE",
    LockStmt: "LOCK",
    DeclareCursorStmt: "DECLARE",
    CreateTableAsStmt: "CREATE TABLE AS",
  };
  if (known[kind]) return known[kind];
  if (/^(Create|Alter|Drop|Grant|Rename|Comment|Truncate)/.test(kind)) return "DDL";
  return kind.replace(/Stmt$/, "").toUpperCase() || "That statement";
}

/** Every node of the tree: writes, SELECT INTO and locking clauses refused; function calls collected. */
function walk(node: unknown, functions: CalledFunction[], depth = 0): void {
  if (depth > 10_000) refuseSql("it is nested too deeply");
  if (Array.isArray(node)) {
    for (const item of node) walk(item, functions, depth + 1);
    return;
  }
  if (node === null || typeof node !== "object") return;
  for (const [key, value] of Object.entries(node)) {
    if (WRITES[key])
      refuseSql(`${WRITES[key]} is not allowed, in a WITH clause or anywhere: the warehouse is read-only`);
    if (key === "SelectStmt") checkSelectNode(value as Record<string, unknown>);
    if (key === "FuncCall") functions.push(calledFunction(value as Record<string, unknown>));
    walk(value, functions, depth + 1);
  }
}

function checkSelectNode(select: Record<string, unknown>): void {
  if (select.intoClause) refuseSql("SELECT ... INTO creates a table and is not allowed; leave out INTO");
  const locking = select.lockingClause as Array<{ LockingClause?: { strength?: string } }> | undefined;
  if (locking && locking.length > 0) {
    const strength = locking[0]?.LockingClause?.strength ?? "";
    const clause = strength
      .replace(/^LCS_FOR/, "FOR ")
      .replace("KEYSHARE", "KEY SHARE")
      .replace("NOKEYUPDATE", "NO KEY UPDATE");
    refuseSql(
      `a locking clause (${clause || "FOR UPDATE/SHARE"}) is not allowed: the warehouse is read-only; leave it out`,
    );
  }
}

function calledFunction(call: Record<string, unknown>): CalledFunction {
  const parts = ((call.funcname as Array<{ String?: { sval?: string } }> | undefined) ?? []).map(
    (part) => part.String?.sval ?? "",
  );
  const name = (parts.at(-1) ?? "").toLowerCase();
  const schema = parts.length > 1 ? parts.at(-2)?.toLowerCase() : undefined;
  if (isDeniedFunction(name)) {
    const shown = schema ? `${schema}.${name}` : name;
    refuseSql(
      `the function ${shown}() is not allowed: the warehouse tool refuses functions ` +
        "that sleep, read files, open connections, change settings or run SQL given as text",
    );
  }
  return schema ? { schema, name } : { name };
}
