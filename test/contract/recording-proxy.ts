// An HTTPS proxy in front of a remote that keeps every exchange whole (both bodies, both header sets),
// so a test can hold what labdata_mcp sent and what the remote answered to the OpenAPI document.
import type { IncomingMessage } from "node:http";
import { startHttpsServer } from "../../packages/emulators/src/common/https-server.js";
import { testCa } from "../support/emulator.js";
import type { Exchange } from "./openapi.js";

/** Hop-by-hop headers and those fetch sets itself. */
const NOT_FORWARDED = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);

export interface RecordingProxy {
  url: string;
  /** Exchanges below `apiRoot`, with paths relative to it, oldest first. */
  exchanges(): Exchange[];
  clear(): void;
  close(): Promise<void>;
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function parseBody(text: string, contentType: string | undefined | null): unknown {
  if (text === "") return undefined;
  if (contentType?.startsWith("application/x-www-form-urlencoded"))
    return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Forwards to `target` (an origin); records requests whose path has `apiRoot` in it, e.g. "/acme/api/v2". */
export async function startRecordingProxy(target: string, apiRoot: string): Promise<RecordingProxy> {
  let recorded: Exchange[] = [];
  const server = await startHttpsServer({
    ca: testCa(),
    async handler(req, res, url) {
      const requestText = await readAll(req);
      const headers = new Headers();
      const requestHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined || NOT_FORWARDED.has(name)) continue;
        const text = Array.isArray(value) ? value.join(", ") : value;
        headers.set(name, text);
        requestHeaders[name] = text;
      }
      const response = await fetch(`${target}${url.pathname}${url.search}`, {
        method: req.method,
        headers,
        body: requestText === "" ? undefined : requestText,
        redirect: "manual",
      });
      const responseText = await response.text();
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (!NOT_FORWARDED.has(name) && name !== "content-encoding") responseHeaders[name] = value;
      });
      if (url.pathname.startsWith(apiRoot)) {
        recorded.push({
          method: req.method ?? "GET",
          path: url.pathname.slice(apiRoot.length),
          query: Object.fromEntries(url.searchParams),
          requestHeaders,
          requestBody: parseBody(requestText, req.headers["content-type"]),
          status: response.status,
          responseHeaders,
          responseBody: parseBody(responseText, response.headers.get("content-type")),
        });
      }
      res.writeHead(response.status, {
        ...responseHeaders,
        "content-length": String(Buffer.byteLength(responseText)),
      });
      res.end(responseText);
    },
  });
  return {
    url: server.url,
    exchanges: () => [...recorded],
    clear() {
      recorded = [];
    },
    close: () => server.close(),
  };
}
