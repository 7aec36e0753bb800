// A Node request as the SDK's web-standard handler takes it, and its web Response written back: what
// toNodeHandler of @modelcontextprotocol/node does, once per exchange instead of twice (the SDK's
// classification and its handler share one Request), with the JSON-RPC body already parsed (the SDK
// reads no body when given it), and a whole JSON answer written in one piece.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendWebResponse } from "./replies.js";

export interface WebExchange {
  req: IncomingMessage;
  /** The request's method, URL and headers (no body: the handler is given it parsed). */
  request: Request;
  /** Aborted when the client goes before the answer is written whole. */
  abort: AbortController;
  /** The answer was written whole. */
  finished: boolean;
}

export function webExchange(req: IncomingMessage, res: ServerResponse): WebExchange {
  const abort = new AbortController();
  const exchange: WebExchange = { req, request: toRequest(req, abort.signal), abort, finished: false };
  res.on("close", () => {
    if (!exchange.finished) abort.abort();
  });
  if (res.destroyed) abort.abort();
  return exchange;
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const host = singleValue(req.headers.host) ?? "localhost";
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(":")) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  const request = new Request(`http://${host}${req.url ?? "/"}`, { method: req.method ?? "GET", headers });
  // The exchange's own signal, not `init.signal`: undici would follow that with a signal of its own,
  // tied by a WeakRef and a FinalizationRegistry, 20-30 us of CPU per request, most of it in the
  // garbage collector. The SDK only listens to `request.signal` (and reads no body from it here).
  Object.defineProperty(request, "signal", { value: signal });
  return request;
}

function singleValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Writes the handler's Response: a JSON answer at once, a stream (SSE) chunk by chunk as it comes. */
export async function writeWebResponse(
  res: ServerResponse,
  response: Response,
  exchange: WebExchange,
): Promise<void> {
  const streaming = response.headers.get("content-type")?.startsWith("text/event-stream") === true;
  if (response.body === null || !streaming) {
    await sendWebResponse(res, response);
    exchange.finished = true;
    return;
  }
  res.writeHead(response.status, Object.fromEntries(response.headers));
  let drained: (() => void) | undefined;
  res.on("drain", () => {
    drained?.();
    drained = undefined;
  });
  const closed = new Promise<void>((resolve) => {
    exchange.abort.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  try {
    for await (const chunk of response.body) {
      if (exchange.abort.signal.aborted) break;
      if (!res.write(chunk)) {
        await Promise.race([
          new Promise<void>((resolve) => {
            drained = resolve;
          }),
          closed,
        ]);
      }
    }
  } catch {
    // The stream failed or the client went: end what was written.
  }
  exchange.finished = true;
  res.end();
}
