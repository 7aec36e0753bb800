// Error bodies of the repository API: {status_code, error_message} (or status_text, per the dialect) with
// the HTTP status. 1218 (invalid
// token) and 1219 (expired token) are the real service's codes, as are 1 (missing or bad parameters) and
// 1302 (wrong order field); the others are the emulator's own: 1000 plus the HTTP status.
import { type HttpResponse, jsonResponse } from "../../common/response.js";

export const StatusCode = {
  OK: 0,
  BAD_PARAMETERS: 1,
  /** "access denied" (fact sheet §10, [ALT]). */
  ACCESS_DENIED: 132,
  WRONG_ORDER_FIELD: 1302,
  INVALID_TOKEN: 1218,
  TOKEN_EXPIRED: 1219,
  NOT_FOUND: 1404,
  METHOD_NOT_ALLOWED: 1405,
  TOO_MANY_REQUESTS: 1429,
} as const;

export function apiError(
  httpStatus: number,
  statusCode: number,
  message: string,
  headers: Record<string, string> = {},
  textKey: ErrorTextKey = "error_message",
): HttpResponse {
  return jsonResponse(httpStatus, { status_code: statusCode, [textKey]: message }, headers);
}

export type ErrorTextKey = "error_message" | "status_text";

export function apiNotFound(message = "Not found.", textKey?: ErrorTextKey): HttpResponse {
  return apiError(404, StatusCode.NOT_FOUND, message, {}, textKey);
}

export function apiMethodNotAllowed(allow: string, textKey?: ErrorTextKey): HttpResponse {
  return apiError(
    405,
    StatusCode.METHOD_NOT_ALLOWED,
    `Method not allowed; use ${allow}.`,
    { allow },
    textKey,
  );
}
