// A hostile HTTPS remote for the reliability suites: it answers what it is told to, one scripted
// answer per request (endless, trickling, huge or compressed-bomb bodies, redirects, absurd rate
// headers), and otherwise a valid answer of the example API. It records every request it receives
// (method, path, headers, body) and when each connection closed, so that tests can prove what was
// sent where and that the server hung up.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { startHttpsServer } from "../../packages/emulators/src/common/https-server.js";
import { testCa } from "../support/emulator.js";

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
  /** The client's port of the connection that carried it: which requests shared a connection. */
  port: number;
  /** Settles when the connection that carried this request is closed (by either side). */
  closed: Promise<void>;
}

/** One scripted answer; it writes the whole exchange and returns when done or cut off. */
export type Answer = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface HostileRemote {
  url: string;
  /** The answers for the next requests whose path starts with `pathPrefix`, in order. */
  script(pathPrefix: string, ...answers: Answer[]): void;
  received: Received[];
  /** Settles with the next request received (for a test that acts while it is being answered). */
  nextRequest(): Promise<Received>;
  /** Forgets the answers not used yet and the requests received, between tests. */
  reset(): void;
  close(): Promise<void>;
}

/** A valid answer of the example API's users/search. */
export const EXAMPLE_SEARCH_BODY = JSON.stringify({
  users: [{ id: "usr_0001", name: "Mei Chen", email: "mei.chen@example.test", team: "Genomics" }],
  total: 1,
});

export async function startHostileRemote(): Promise<HostileRemote> {
  const scripts: Array<{ prefix: string; answer: Answer }> = [];
  const received: Received[] = [];
  const waiting: Array<(request: Received) => void> = [];
  const server = await startHttpsServer({
    ca: testCa(),
    async handler(req, res, url) {
      const closed = closedPromise(req.socket);
      const body = await readSmallBody(req);
      const port = req.socket.remotePort ?? 0;
      const request = {
        method: req.method ?? "",
        path: url.pathname,
        headers: req.headers,
        body,
        port,
        closed,
      };
      received.push(request);
      for (const notify of waiting.splice(0)) notify(request);
      const index = scripts.findIndex((entry) => url.pathname.startsWith(entry.prefix));
      const scripted = index >= 0 ? scripts.splice(index, 1)[0]?.answer : undefined;
      await (scripted ?? json(200, EXAMPLE_SEARCH_BODY))(req, res);
    },
  });
  return {
    url: server.url,
    script(prefix, ...answers) {
      for (const answer of answers) scripts.push({ prefix, answer });
    },
    received,
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    reset() {
      scripts.length = 0;
      received.length = 0;
    },
    close: () => server.close(),
  };
}

/** One promise per connection, settled when it closes (a keep-alive connection carries many requests). */
const closings = new WeakMap<Socket, Promise<void>>();
function closedPromise(socket: Socket): Promise<void> {
  let closed = closings.get(socket);
  if (!closed) {
    closed = new Promise<void>((resolve) => {
      if (socket.destroyed) resolve();
      else socket.once("close", () => resolve());
    });
    closings.set(socket, closed);
  }
  return closed;
}

/** A request body up to 1 MB (what our servers send is small); the rest is dropped. */
async function readSmallBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= 1024 * 1024) chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A whole JSON answer. */
export function json(status: number, body: string, headers: Record<string, string> = {}): Answer {
  return async (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(body);
  };
}

/** Streams `source` as the body, until it ends or the client hangs up. */
function streamed(
  status: number,
  headers: Record<string, string>,
  source: () => AsyncGenerator<Buffer>,
): Answer {
  return async (_req, res) => {
    res.writeHead(status, headers);
    await pipeline(Readable.from(source()), res).catch(() => undefined);
  };
}

const CHUNK = Buffer.alloc(64 * 1024, "x");

/** A body that never ends (chunked), starting like JSON. */
export function endlessBody(status = 200, contentType = "application/json"): Answer {
  return streamed(status, { "content-type": contentType }, async function* () {
    yield Buffer.from(contentType === "application/pdf" ? "%PDF-1.7\n" : '{"users": ["');
    for (;;) yield CHUNK;
  });
}

/** A body of `bytes`, announced in Content-Length and really sent (as long as the client reads). */
export function hugeBody(bytes: number): Answer {
  return streamed(
    200,
    { "content-type": "application/json", "content-length": String(bytes) },
    async function* () {
      for (let sent = 0; sent < bytes; sent += CHUNK.length)
        yield CHUNK.subarray(0, Math.min(CHUNK.length, bytes - sent));
    },
  );
}

/** A PDF of `bytes` (a "%PDF-" header and filler), for downloads within the PDF limit. */
export function pdfBody(bytes: number): Answer {
  const pdf = Buffer.alloc(bytes, " ");
  pdf.write("%PDF-1.7\n");
  return async (_req, res) => {
    res.writeHead(200, { "content-type": "application/pdf", "content-length": String(bytes) });
    res.end(pdf);
  };
}

/** One byte a second, for ever. */
export function tricklingBody(): Answer {
  return streamed(200, { "content-type": "application/json" }, async function* () {
    for (;;) {
      yield Buffer.from(" ");
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  });
}

/**
 * A gzip body of a few hundred KB that inflates to `inflatedBytes` of JSON-ish filler; compressed
 * once, on first use.
 */
export function gzipBomb(inflatedBytes: number): Answer & { ready: Promise<unknown> } {
  // Compressed before any request, so that the seconds it takes are not counted as the remote's wait.
  const compressed = compress(inflatedBytes);
  const answer: Answer = async (req, res) => {
    const bytes = await compressed;
    res.writeHead(200, {
      "content-type": "application/json",
      "content-encoding": "gzip",
      "content-length": String(bytes.length),
    });
    res.end(bytes);
    void req;
  };
  return Object.assign(answer, { ready: compressed });
}

async function compress(inflatedBytes: number): Promise<Buffer> {
  const zeros = Buffer.alloc(1024 * 1024, " ");
  const gzip = createGzip({ level: 9 });
  const out: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve, reject) => {
    gzip.on("end", resolve);
    gzip.on("error", reject);
  });
  gzip.write('{"users": ["');
  for (let written = 0; written < inflatedBytes; written += zeros.length) {
    if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once("drain", resolve));
  }
  gzip.end();
  await done;
  return Buffer.concat(out);
}

/** A redirect to `location` with the given status. */
export function redirect(status: number, location: string): Answer {
  return async (_req, res) => {
    res.writeHead(status, { location, "content-type": "text/plain" });
    res.end(`Moved to ${location}`);
  };
}

/** The example search's answer after `ms`: requests asked together are then answered on connections of their own. */
export function slowSearch(ms: number): Answer {
  return async (req, res) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await json(200, EXAMPLE_SEARCH_BODY)(req, res);
  };
}

/** No answer at all: the connection is closed as the request arrives (an idle keep-alive closed under it). */
export function resetConnection(): Answer {
  return async (req) => {
    req.socket.destroy();
  };
}
