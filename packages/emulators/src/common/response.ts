// What every emulator handler answers: a response value (status, headers, body) instead of writes to
// `res`, so handlers can be read and composed as plain functions, and one writer puts it on the wire.
import type { ServerResponse } from "node:http";

export type ResponseHeaders = Record<string, string | string[]>;

export type ResponseBody =
  /** JSON text, already serialized (so cached JSON is sent as is). */
  | { kind: "json"; text: string }
  | { kind: "text"; text: string; contentType: string }
  | { kind: "bytes"; bytes: Uint8Array; contentType: string }
  /** Sent exactly as given, with only the response's own headers (no content type or length added). */
  | { kind: "raw"; text: string };

export interface HttpResponse {
  status: number;
  headers?: ResponseHeaders;
  /** None: no body and no content headers (204, redirects). */
  body?: ResponseBody;
}

export function jsonResponse(status: number, value: unknown, headers?: ResponseHeaders): HttpResponse {
  return { status, headers, body: { kind: "json", text: JSON.stringify(value) } };
}

/** JSON already serialized, e.g. a list envelope built around cached records. */
export function jsonTextResponse(status: number, text: string, headers?: ResponseHeaders): HttpResponse {
  return { status, headers, body: { kind: "json", text } };
}

export function emptyResponse(status = 204, headers?: ResponseHeaders): HttpResponse {
  return { status, headers };
}

/** `response` with `headers` added beneath its own (its own win), e.g. the rate headers of every answer. */
export function withHeaders(response: HttpResponse, headers: ResponseHeaders): HttpResponse {
  return { ...response, headers: { ...headers, ...response.headers } };
}

function contentHeaders(body: ResponseBody): Record<string, string> {
  switch (body.kind) {
    case "json":
      return {
        "content-type": "application/json; charset=utf-8",
        "content-length": String(Buffer.byteLength(body.text)),
      };
    case "text":
      return { "content-type": body.contentType, "content-length": String(Buffer.byteLength(body.text)) };
    case "bytes":
      return { "content-type": body.contentType, "content-length": String(body.bytes.length) };
    case "raw":
      return {};
  }
}

/** The one writer: status, content type and length, then the response's headers (which may override). */
export function writeResponse(res: ServerResponse, response: HttpResponse): void {
  const { body } = response;
  if (!body) {
    res.writeHead(response.status, response.headers);
    res.end();
    return;
  }
  res.writeHead(response.status, { ...contentHeaders(body), ...response.headers });
  res.end(body.kind === "bytes" ? body.bytes : body.text);
}
