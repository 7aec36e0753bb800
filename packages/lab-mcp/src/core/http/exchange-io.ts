// How one HTTP request goes on the wire for RemoteClient. Without a proxy: node:https with one
// keep-alive agent per process, which costs half the CPU of fetch per request (no WHATWG Request,
// Response and streams around the socket). With HTTPS_PROXY or HTTP_PROXY: fetch, whose global
// dispatcher is then undici's EnvHttpProxyAgent (proxy.ts). Either way the caller sees the same
// answer: status, headers, and the body decompressed as fetch decompresses it, read by iteration.

import type { IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { pipeline, type Readable } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import { proxyInstalled } from "./proxy.js";

/** What a request sends: already with its credential. */
export interface WireRequest {
  method: string;
  headers: Headers;
  body: string | URLSearchParams | undefined;
  signal: AbortSignal;
  /**
   * Sent again after a reset before any answer: on a new connection, and the kept-alive ones dropped,
   * for a remote that reset one has most often closed the others too (seen under load: three stale
   * connections in a row, each reset, where fetch's pool and ours keep several).
   */
  fresh?: boolean;
}

/** An answer up to its headers; the body is read by iterating it, decompressed. */
export interface WireAnswer {
  status: number;
  ok: boolean;
  headers: Headers;
  body: AsyncIterable<Uint8Array> | null;
  /** The rest of the body is not wanted: stop reading it (the connection goes with it). */
  discard(): void;
}

/** Sends one request and resolves with the answer's headers; no redirect is followed. */
export function sendOnce(target: URL, request: WireRequest): Promise<WireAnswer> {
  return proxyInstalled() ? viaFetch(target, request) : viaHttps(target, request);
}

async function viaFetch(target: URL, { method, headers, body, signal }: WireRequest): Promise<WireAnswer> {
  const response = await fetch(target, { method, headers, body, signal, redirect: "manual" });
  const stream = response.body;
  return {
    status: response.status,
    ok: response.ok,
    headers: response.headers,
    body: stream,
    discard: () => {
      stream?.cancel().catch(() => undefined);
    },
  };
}

/** Kept-alive connections to the remotes, as fetch's own pool keeps them. */
let agent: HttpsAgent | undefined;

/** What fetch asks for and decodes on an https:// request. */
const ACCEPT_ENCODING = "br, gzip, deflate";

function viaHttps(target: URL, { method, headers, body, signal, fresh }: WireRequest): Promise<WireAnswer> {
  agent ??= new HttpsAgent({ keepAlive: true });
  if (fresh) dropKeptConnections(agent);
  const outgoing: Record<string, string> = {};
  for (const [name, value] of headers) outgoing[name] = value;
  outgoing["accept-encoding"] ??= ACCEPT_ENCODING;
  let payload: string | undefined;
  if (body instanceof URLSearchParams) {
    payload = body.toString();
    outgoing["content-type"] ??= "application/x-www-form-urlencoded;charset=UTF-8";
  } else if (body !== undefined) {
    payload = body;
    outgoing["content-type"] ??= "text/plain;charset=UTF-8";
  }
  if (payload !== undefined) outgoing["content-length"] = String(Buffer.byteLength(payload));
  return new Promise<WireAnswer>((resolve, reject) => {
    const options = { method, headers: outgoing, agent: fresh ? false : agent, signal };
    const req = httpsRequest(target, options, (res) => {
      resolve(answerOf(res, method));
    });
    req.on("error", reject);
    req.end(payload);
  });
}

function dropKeptConnections(pool: HttpsAgent): void {
  for (const sockets of Object.values(pool.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
}

function answerOf(res: IncomingMessage, method: string): WireAnswer {
  const status = res.statusCode ?? 0;
  const headers = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  // An error after the headers surfaces when the body is read; until then it must not go unheard.
  res.on("error", () => undefined);
  const noBody = method === "HEAD" || status === 204 || status === 304;
  const body = noBody ? null : decoded(res, headers.get("content-encoding"));
  return {
    status,
    ok: status >= 200 && status < 300,
    headers,
    body,
    discard: () => {
      if (body && body !== res) (body as Readable).destroy();
      res.destroy();
    },
  };
}

/** The body as fetch gives it: each content coding undone, last applied first; unknown ones left as they are. */
function decoded(res: IncomingMessage, encoding: string | null): Readable {
  if (!encoding) return res;
  const codings = encoding
    .toLowerCase()
    .split(",")
    .map((coding) => coding.trim())
    .filter((coding) => coding !== "" && coding !== "identity")
    .reverse();
  const decoders = [];
  for (const coding of codings) {
    if (coding === "gzip" || coding === "x-gzip") decoders.push(createGunzip());
    else if (coding === "deflate") decoders.push(createInflate());
    else if (coding === "br") decoders.push(createBrotliDecompress());
    else return res;
  }
  if (decoders.length === 0) return res;
  const last = decoders.at(-1) as Readable;
  pipeline([res, ...decoders], () => undefined);
  return last;
}
