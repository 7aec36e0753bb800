// Successful API answers carry status_code 0 beside their data, as every answer of the real service does,
// and, in dialects that send it, a warning_code when the caller's token expires soon (fact sheet §1, §10).
import type { IncomingMessage } from "node:http";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import type { ProtocolsContext } from "../context.js";
import type { User } from "../model.js";
import { apiError, apiNotFound, type ErrorTextKey, StatusCode } from "./api-errors.js";
import type { WireView } from "./api-shapes.js";

const DAY_MS = 24 * 3600 * 1000;
/** The real service warns "about a month before" expiry (§1). */
export const EXPIRY_WARNING_DAYS = 30;

/** What an API route handler is given: the signed-in user and its answers in the dialect. */
export interface ApiRequest {
  /** The request, for the body of a write. */
  req: IncomingMessage;
  /** The path and query; its origin is a placeholder. */
  url: URL;
  viewer: User;
  ctx: ProtocolsContext;
  view: WireView;
  answer: ApiAnswer;
}

/** One API request's answers, worded in the emulator's dialect. */
export interface ApiAnswer {
  ok(body: Record<string, unknown>): HttpResponse;
  error(httpStatus: number, statusCode: number, message: string): HttpResponse;
  notFound(message: string): HttpResponse;
}

/** warning_code 1 and its message when the token ends within EXPIRY_WARNING_DAYS; {} otherwise. */
export function expiryWarning(expiresAt: number | null, now: number): Record<string, unknown> {
  if (expiresAt === null || expiresAt - now > EXPIRY_WARNING_DAYS * DAY_MS) return {};
  const days = Math.max(0, Math.ceil((expiresAt - now) / DAY_MS));
  return { warning_code: 1, warning_message: `Your access token expires in ${days} days` };
}

export function apiAnswer(textKey: ErrorTextKey, warning: Record<string, unknown> = {}): ApiAnswer {
  return {
    ok: (body) => jsonResponse(200, { ...body, status_code: StatusCode.OK, ...warning }),
    error: (httpStatus, statusCode, message) => apiError(httpStatus, statusCode, message, {}, textKey),
    notFound: (message) => apiNotFound(message, textKey),
  };
}
