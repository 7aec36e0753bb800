// What every JSON answer of the repository says besides its data (fact sheet sections 1 and 10): its
// own status_code, looked at whatever the HTTP status (0 or none is success; 1218 and 1219, sent with
// HTTP 400, mean the token is invalid or expired), and a warning_code on a successful answer (the token
// expires soon). Error texts are under error_message (v3) or status_text (v4) and are never shown.

import { inline, integer, isRecord } from "../records/values.js";

/** 1218: the token is not correct; 1219: the token is expired. */
export const AUTH_FAILURE_CODES: ReadonlySet<number> = new Set([1218, 1219]);

/** The HTTP status each known code stands for, for the conventions' error texts. */
const STATUS_OF_CODE: Record<number, number> = {
  1218: 401,
  1219: 401,
  132: 403,
  205: 403,
  250: 403,
  212: 404,
  1266: 429,
  1302: 400,
  // The emulator's own: 1000 plus the HTTP status.
  1404: 404,
  1429: 429,
};

const WARNING_CHARS = 200;

/** The answer's non-zero status_code; undefined for success or none. */
export function failureCodeOf(body: unknown): number | undefined {
  if (!isRecord(body)) return undefined;
  const code = integer().parse(body.status_code);
  return code === undefined || code === 0 ? undefined : code;
}

/**
 * The HTTP status a failure code stands for. Code 1 is "missing or empty parameters" on v3 and
 * "invalid uri" (no such protocol) on v4, so it reads as not found where a protocol was asked for.
 */
export function statusOfCode(
  code: number,
  httpStatus: number | undefined,
  asksForOneProtocol: boolean,
): number {
  if (code === 1) return asksForOneProtocol ? 404 : 400;
  return STATUS_OF_CODE[code] ?? (httpStatus !== undefined && httpStatus >= 400 ? httpStatus : 400);
}

export interface RemoteWarning {
  code: number;
  /** The repository's words, decoded to one line and cut to a sentence's length. */
  message: string;
}

/** A warning_code on a successful answer, with its warning_message. */
export function warningOf(body: unknown): RemoteWarning | undefined {
  if (!isRecord(body)) return undefined;
  const code = integer().parse(body.warning_code);
  if (code === undefined || code === 0) return undefined;
  const said = inline.parse(body.warning_message);
  const message =
    said === undefined
      ? `warning code ${code}`
      : said.length > WARNING_CHARS
        ? `${said.slice(0, WARNING_CHARS)}…`
        : said;
  return { code, message };
}
