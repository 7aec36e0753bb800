// What an API handler answers, and how it goes on the wire: JSON, its length, the rate headers.
import type { ServerResponse } from "node:http";
import { type ApiError, errorBody } from "./errors.js";

export interface ApiResponse {
  status: number;
  /** JSON text. */
  body: string;
  headers?: Record<string, string>;
}

export function jsonResponse(status: number, value: unknown, headers?: Record<string, string>): ApiResponse {
  return { status, body: JSON.stringify(value), headers };
}

export function errorResponse(error: ApiError): ApiResponse {
  return jsonResponse(error.status, errorBody(error), error.headers);
}

export function send(
  res: ServerResponse,
  response: ApiResponse,
  extraHeaders: Record<string, string> = {},
): void {
  res.writeHead(response.status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(response.body)),
    ...extraHeaders,
    ...response.headers,
  });
  res.end(response.body);
}
