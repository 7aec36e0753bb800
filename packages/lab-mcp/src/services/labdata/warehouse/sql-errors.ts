// What the agent reads when the warehouse refuses or cannot run a query: PostgreSQL's own message,
// code, position (in the text the agent sent, as line and column) and hint, so that it can fix the
// statement; a time limit that stopped it, with how to narrow it; a connection that failed, by its
// cause (the type name for the agent, the remedy on stderr, as on the HTTPS side).
import { ActionableError, ConnectionError, RemoteTimeoutError } from "../../../core/errors.js";
import {
  CertificateError,
  ConnectionRefusedError,
  HostNotFoundError,
  reportNetworkError,
} from "../../../core/http/network-error.js";
import { type WarehouseAddress, whereOf } from "./address.js";
import { type CheckedSelect, positionText } from "./sql-guard.js";

/** PostgreSQL's error as the pg client gives it (pg-protocol's DatabaseError). */
interface PostgresError {
  code?: string;
  message: string;
  position?: string;
  hint?: string;
  detail?: string;
}

export function isPostgresError(error: unknown): error is Error & PostgresError {
  return (
    error instanceof Error &&
    typeof (error as { code?: unknown }).code === "string" &&
    /^[0-9A-Z]{5}$/.test((error as unknown as { code: string }).code) &&
    "severity" in error
  );
}

/** Codes of a connection the server ended or lost (class 08, and 57P01-57P05: shutdown, termination). */
export function endsConnection(code: string | undefined): boolean {
  return code !== undefined && (code.startsWith("08") || code.startsWith("57P"));
}

/** The login was refused: a wrong or expired password, or a role that is gone. */
export function isLoginRefused(error: unknown): boolean {
  return isPostgresError(error) && (error.code === "28P01" || error.code === "28000");
}

/**
 * The warehouse's refusal of a statement sent as `prefix` + the checked text + the rest: its message,
 * the position in what the agent sent, the hint.
 */
export function queryRefused(
  error: unknown,
  checked: CheckedSelect,
  prefixLength: number,
  timeoutMs: number,
): unknown {
  if (!isPostgresError(error) || endsConnection(error.code)) return error;
  if (error.code === "57014") return timedOut(timeoutMs);
  if (error.code === "53300") {
    return new ActionableError(
      "The warehouse has no free connection for your login now. Wait a moment and call again",
    );
  }
  const position = Number(error.position);
  const inStatement = Number.isInteger(position) ? position - 1 - prefixLength : -1;
  const at =
    inStatement >= 0 && inStatement <= checked.text.length
      ? positionText(checked.source, checked.offset + inStatement)
      : "";
  const hint = error.hint ? `. Hint: ${oneLineOf(error.hint)}` : "";
  const detail = error.detail ? `. Detail: ${oneLineOf(error.detail)}` : "";
  return new ActionableError(
    `The warehouse refused the query: ${oneLineOf(error.message)}${at} (SQLSTATE ${error.code})${detail}${hint}. ` +
      "Correct the statement and call again; labdata_describe_warehouse lists the tables and columns",
  );
}

/** PostgreSQL's text on one line, without its closing period (ours follows). */
/** The statement (or the rows' reading, all fetches together) ran past the time limit. */
export function timedOut(timeoutMs: number): ActionableError {
  return new ActionableError(
    `The query ran past the warehouse's time limit of ${Math.round(timeoutMs / 1000)} s and was stopped. ` +
      "Narrow it (a WHERE on a date, a project or an id; fewer joins; an aggregate rather than rows) and call again",
  );
}

function oneLineOf(text: string): string {
  return text.replace(/\s+/g, " ").trim().replace(/\.$/, "");
}

/** A failure to reach or log in to the warehouse at `address`, by its cause. */
export function connectionFailed(error: unknown, address: WarehouseAddress, timeoutMs: number): unknown {
  if (error instanceof ConnectionError || error instanceof ActionableError) return error;
  const where = whereOf(address);
  const code = causeCode(error);
  const setting =
    "check LABDATA_WAREHOUSE_URL (postgres://host:5432/warehouse); the platform's other tools do not need it";
  let classified: ConnectionError | undefined;
  if (
    code &&
    /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS_CERT_ALTNAME_INVALID/.test(code)
  ) {
    classified = new CertificateError(
      `the certificate of the warehouse ${where} is not trusted (${code})`,
      "set NODE_EXTRA_CA_CERTS to the PEM file of the CA that signed it (your company's or the tenant's) and restart the server",
    );
  } else if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
    classified = new HostNotFoundError(
      `the warehouse host ${address.host} is not known to DNS (${code})`,
      setting,
    );
  } else if (code === "ECONNREFUSED") {
    classified = new ConnectionRefusedError(
      `the warehouse ${where} refused the connection (ECONNREFUSED)`,
      setting,
    );
  } else if (error instanceof Error && /timeout/i.test(error.message)) {
    return new RemoteTimeoutError(timeoutMs);
  } else if (isPostgresError(error) && error.code === "28000") {
    return new ActionableError(
      `The warehouse refused your login (${oneLineOf(error.message)}): your tenant may not have the warehouse ` +
        "enabled for you, or it does not allow connections from here. Ask your tenant's admin",
    );
  } else if (!isPostgresError(error)) {
    classified = new ConnectionError(`The connection to the warehouse failed${code ? ` (${code})` : ""}`);
  }
  if (classified) {
    reportNetworkError(classified);
    return classified;
  }
  return error;
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = current.cause;
  }
  return undefined;
}
