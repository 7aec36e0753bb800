// The one way a service talks to its remote: HTTPS only, credentials from an AuthStrategy, a shared
// rate budget served in turn by person (state/fair-line.ts), bounded 429 retries for idempotent requests,
// and one deadline and cancellation per exchange that cover connecting, the headers and the whole body.
// Bodies are read with a byte cap (counted after decompression), and redirects never carry a body or a
// credential to another origin.
import type { ZodType } from "zod";
import { type ClientSession, fairShareOf } from "../caller.js";
import {
  ConnectionError,
  InvalidResponseError,
  RemoteStatusError,
  RemoteTimeoutError,
  ResponseTooLargeError,
} from "../errors.js";
import { countRemoteAnswer, countRemoteFailure, countWait } from "../ops/metrics.js";
import { sleep } from "../sleep.js";
import { RateBudget } from "../state/budget.js";
import { MemoryState } from "../state/memory-state.js";
import type { RateLimit } from "../state/shared-state.js";
import type { ApiPath } from "./api-path.js";
import type { AuthStrategy } from "./auth.js";
import { sendOnce, type WireAnswer } from "./exchange-io.js";
import { classifyNetworkError, isResetBeforeAnswer, reportNetworkError } from "./network-error.js";
import {
  DEFAULT_RETRY_POLICY,
  parseRateLimitReset,
  parseRetryAfter,
  type RetryPolicy,
  retryDelay,
} from "./retry.js";

export const DEFAULT_TIMEOUT_MS = 30_000;
/** The largest answer read by default (MCP_MAX_RESPONSE_BYTES). */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
const MAX_REDIRECTS = 5;
/** How much of an error answer is read (for a service that reads its remote's error codes). */
const MAX_ERROR_BODY_BYTES = 4096;

/** What a single call brings along: its cancellation signal and where to report waits and debug lines. */
export interface RequestScope {
  signal?: AbortSignal;
  /** Heard when the call must wait (rate limit or Retry-After) for this many milliseconds. */
  onWait?(waitMs: number, reason: string): void;
  debug?(message: string): void;
  /** Heard with every answer's status and headers (the `check` subcommand reports the rate headers). */
  onResponse?(status: number, headers: Headers): void;
  /** Whom the call is for: a shared credential's rate budget serves its waiting callers in turn. */
  readonly clientSession?: ClientSession;
}

export interface RemoteClientOptions {
  baseUrl: string;
  auth: AuthStrategy;
  /** Bounds each exchange as a whole: connecting, the headers and the body. */
  timeoutMs?: number;
  /** The largest answer read, decompressed (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
  /** Client-side limit: the rate budget of the credential, shared by every client (and replica) using it. */
  limiter?: RateBudget;
  rateLimit?: RateLimit;
  retry?: RetryPolicy;
  userAgent?: string;
}

type Query = Record<string, string | number | boolean | undefined | null | Array<string | number>>;

export interface RequestOptions<T> {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Relative to the base URL, built by apiPath, e.g. apiPath`users/search`. */
  path: ApiPath;
  query?: Query;
  /** Sent as JSON, or as form data when it is URLSearchParams. */
  body?: unknown;
  /** Only idempotent requests are retried after a 429. Defaults to true for GET, PUT and DELETE. */
  idempotent?: boolean;
  responseType?: "json" | "text" | "bytes";
  /** Checks the shape of a JSON body; a mismatch is an InvalidResponseError. */
  schema?: ZodType<T>;
  headers?: Record<string, string>;
  /**
   * False for requests that carry secrets in their body (OAuth token endpoints): a redirect is not
   * followed, and its 3xx status is the error.
   */
  followRedirects?: boolean;
}

export interface RemoteResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

interface Outgoing {
  method: string;
  headers: Headers;
  body: string | URLSearchParams | undefined;
}

export class RemoteClient {
  readonly baseUrl: URL;
  private readonly auth: AuthStrategy;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly limiter: RateBudget | undefined;
  private readonly retry: RetryPolicy;
  private readonly userAgent: string;

  constructor(options: RemoteClientOptions) {
    this.baseUrl = parseHttpsBaseUrl(options.baseUrl);
    this.auth = options.auth;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.limiter =
      options.limiter ??
      (options.rateLimit ? new RateBudget(new MemoryState().budget("remote", options.rateLimit)) : undefined);
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.userAgent = options.userAgent ?? "lab-mcp";
  }

  async request<T = unknown>(
    options: RequestOptions<T>,
    scope: RequestScope = {},
  ): Promise<RemoteResponse<T>> {
    const method = options.method ?? "GET";
    const idempotent = options.idempotent ?? (method === "GET" || method === "PUT" || method === "DELETE");
    const url = this.urlFor(options.path, options.query);
    let renewedAuth = false;
    let resent = false;

    for (let attempt = 0; ; attempt++) {
      const ticket = await countWait("budget", async (waiting) =>
        this.limiter?.take(
          scope.signal,
          (ms) => {
            waiting();
            scope.onWait?.(ms, "client-side rate limit");
          },
          fairShareOf(scope.clientSession),
        ),
      );
      const outgoing = await this.outgoing(method, options, scope);
      const exchange = new Exchange(this.timeoutMs, scope.signal, url, idempotent && !resent);
      try {
        const sent = await exchange
          .sendWith(() => this.send(url, outgoing, options, scope, exchange.signal, resent))
          .catch(countRemoteFailure);
        if (sent === RESET_BEFORE_ANSWER) {
          resent = true;
          scope.debug?.(`${method} ${options.path}: the connection was reset before any answer; sent again`);
          continue;
        }
        const response = countRemoteAnswer(sent);
        scope.onResponse?.(response.status, response.headers);
        await this.observeRateHeaders(response.headers, ticket);

        if (response.status === 401 && !renewedAuth && this.auth.renewAfterUnauthorized) {
          renewedAuth = true;
          exchange.close();
          if (await this.auth.renewAfterUnauthorized(scope.signal, outgoing.headers.get("authorization")))
            continue;
          throw new RemoteStatusError(401);
        }
        if (response.status === 429) {
          exchange.close();
          const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
          if (retryAfterMs !== undefined) await this.limiter?.pause(retryAfterMs);
          const retryable = retryAfterMs === undefined || retryAfterMs <= this.retry.maxRetryAfterMs;
          if (!idempotent || attempt >= this.retry.maxRetries || !retryable) {
            throw new RemoteStatusError(429, retryAfterMs);
          }
          const delay = retryDelay(attempt, retryAfterMs, this.retry);
          scope.debug?.(
            `429 from ${method} ${options.path}; retry ${attempt + 1} in ${Math.round(delay)} ms`,
          );
          scope.onWait?.(delay, "remote rate limit (429)");
          await countWait("retry_after", async (waiting) => {
            waiting();
            await sleep(delay, scope.signal);
          });
          continue;
        }
        if (!response.ok) {
          throw new RemoteStatusError(response.status, undefined, await readErrorBody(response, exchange));
        }
        const bytes = await exchange.run(() => readAtMost(response, this.maxResponseBytes));
        exchange.finish();
        return { status: response.status, headers: response.headers, body: decode(bytes, response, options) };
      } finally {
        // Whatever was not read is not wanted: the connection goes, and with it the rest of the body.
        exchange.close();
      }
    }
  }

  /** The method, headers (with the credential) and body of a request, before it is sent. */
  private async outgoing(
    method: string,
    options: RequestOptions<unknown>,
    scope: RequestScope,
  ): Promise<Outgoing> {
    const headers = new Headers({ "user-agent": this.userAgent, accept: acceptFor(options.responseType) });
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    await this.auth.authorize(headers, scope.signal);
    let body: Outgoing["body"];
    if (options.body instanceof URLSearchParams) body = options.body;
    else if (options.body !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(options.body);
    }
    return { method, headers, body };
  }

  /**
   * One HTTP exchange up to its final headers, following HTTPS redirects as browsers do, but more
   * warily: 301, 302 and 303 become a GET without a body; a body never goes to another origin (a
   * 307/308 that would replay it there is not followed), nor does the Authorization header; and a
   * request with followRedirects false follows none.
   */
  private async send(
    url: URL,
    first: Outgoing,
    options: RequestOptions<unknown>,
    scope: RequestScope,
    signal: AbortSignal,
    /** Sent again after a reset: on a new connection (exchange-io.ts). */
    fresh = false,
  ): Promise<WireAnswer> {
    const started = Date.now();
    let { method, body } = first;
    const headers = new Headers(first.headers);
    let target = url;
    for (let redirects = 0; ; redirects++) {
      const response = await sendOnce(target, { method, headers, body, signal, fresh });
      const location = response.headers.get("location");
      const followed =
        response.status >= 300 &&
        response.status < 400 &&
        location !== null &&
        redirects < MAX_REDIRECTS &&
        options.followRedirects !== false;
      const next = followed ? new URL(location, target) : undefined;
      if (next && next.protocol !== "https:")
        throw new ConnectionError("Refused a redirect to a non-HTTPS URL");
      const toGet = [301, 302, 303].includes(response.status) && method !== "GET" && method !== "HEAD";
      const carriesBody = body !== undefined && !toGet;
      if (!next || (next.origin !== target.origin && carriesBody)) {
        scope.debug?.(`${method} ${target.pathname} -> ${response.status} in ${Date.now() - started} ms`);
        return response;
      }
      response.discard();
      if (toGet) {
        method = "GET";
        body = undefined;
        headers.delete("content-type");
      }
      // Credentials go only to the origin they were made for.
      if (next.origin !== target.origin) headers.delete("authorization");
      target = next;
    }
  }

  private async observeRateHeaders(headers: Headers, ticket: number | undefined): Promise<void> {
    if (!this.limiter) return;
    const number = (name: string) => {
      const value = headers.get(name);
      return value === null || value.trim() === "" || Number.isNaN(Number(value)) ? undefined : Number(value);
    };
    await this.limiter.observe(
      {
        limit: number("x-rate-limit-limit"),
        remaining: number("x-rate-limit-remaining"),
        resetMs: parseRateLimitReset(headers.get("x-rate-limit-reset")),
      },
      ticket,
    );
  }

  private urlFor(path: string, query: Query | undefined): URL {
    const url = new URL(path.replace(/^\/+/, ""), this.baseUrl);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(name, String(item));
      else url.searchParams.set(name, String(value));
    }
    return url;
  }
}

/**
 * One request and its answer under one signal: the timeout and the caller's cancellation abort the
 * connection whether it is connecting, waiting for headers or part way through the body. Tells the
 * two apart: a timeout is RemoteTimeoutError, a cancellation is re-thrown as the caller's abort
 * reason, and a network failure is ConnectionError.
 */
/** What Exchange.run gives instead of throwing when a request it may send again met a reset connection. */
const RESET_BEFORE_ANSWER = Symbol("reset before answer");

class Exchange {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private timedOut = false;
  private finished = false;
  private readonly onCancel = () => this.controller.abort(this.callerSignal?.reason);

  constructor(
    private readonly timeoutMs: number,
    private readonly callerSignal: AbortSignal | undefined,
    private readonly target: URL,
    /** Whether a reset before any answer is handed back (RESET_BEFORE_ANSWER) for one more try. */
    private readonly mayResend = false,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort(new RemoteTimeoutError(timeoutMs));
    }, timeoutMs);
    callerSignal?.addEventListener("abort", this.onCancel, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Sends: like run, but a reset before any answer comes back as RESET_BEFORE_ANSWER when it may be sent again. */
  sendWith<R>(step: () => Promise<R>): Promise<R | typeof RESET_BEFORE_ANSWER> {
    return this.guard(step, this.mayResend);
  }

  run<R>(step: () => Promise<R>): Promise<R> {
    return this.guard(step, false) as Promise<R>;
  }

  private async guard<R>(step: () => Promise<R>, resend: boolean): Promise<R | typeof RESET_BEFORE_ANSWER> {
    try {
      this.callerSignal?.throwIfAborted();
      this.signal.throwIfAborted();
      return await step();
    } catch (error) {
      if (this.timedOut) throw new RemoteTimeoutError(this.timeoutMs);
      if (this.callerSignal?.aborted) throw this.callerSignal.reason;
      if (error instanceof ResponseTooLargeError || error instanceof ConnectionError) throw error;
      if (resend && isResetBeforeAnswer(error)) return RESET_BEFORE_ANSWER;
      if (error instanceof TypeError || isNetworkError(error)) {
        const classified = classifyNetworkError(error, this.target);
        reportNetworkError(classified);
        throw classified;
      }
      throw error;
    }
  }

  /** The answer was read whole: the connection may be kept for the next request. */
  finish(): void {
    this.finished = true;
  }

  /** Ends the exchange; one not read whole is aborted, which closes its connection. */
  close(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener("abort", this.onCancel);
    if (!this.finished) this.controller.abort(new ConnectionError("The exchange was closed"));
    this.finished = true;
  }
}

/**
 * The body, decompressed, as long as it stays within `limit` bytes: a Content-Length beyond it is
 * refused before reading, and a body that grows beyond it (endless, or a compression bomb) is cut
 * there. Either way ResponseTooLargeError, and the caller closes the connection.
 */
async function readAtMost(response: WireAnswer, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) throw new ResponseTooLargeError(limit);
  if (!response.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const value of response.body) {
    total += value.byteLength;
    if (total > limit) {
      response.discard();
      throw new ResponseTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/**
 * The start of an error answer's body (its first few KB; the rest is not read), parsed as JSON when it
 * is; undefined when unreadable. The status is what matters, so a failure here is not an error.
 */
async function readErrorBody(response: WireAnswer, exchange: Exchange): Promise<unknown> {
  const { body } = response;
  if (!body) return undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    await exchange.run(async () => {
      for await (const value of body) {
        chunks.push(value);
        total += value.byteLength;
        if (total >= MAX_ERROR_BODY_BYTES) return;
      }
    });
  } catch {
    return undefined;
  } finally {
    response.discard();
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks, total).subarray(0, MAX_ERROR_BODY_BYTES));
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The body as the request asked for it: bytes, text, or JSON checked against its schema. */
function decode<T>(bytes: Uint8Array, response: WireAnswer, options: RequestOptions<T>): T {
  if (options.responseType === "bytes") return bytes as T;
  const text = new TextDecoder().decode(bytes);
  if (options.responseType === "text") return text as T;
  let parsed: unknown;
  try {
    parsed = text.length === 0 ? undefined : JSON.parse(text);
  } catch {
    throw new InvalidResponseError(`The remote answered ${response.status} with a body that is not JSON`);
  }
  if (!options.schema) return parsed as T;
  const checked = options.schema.safeParse(parsed);
  if (!checked.success) {
    throw new InvalidResponseError(`The remote answered with an unexpected shape: ${checked.error.message}`);
  }
  return checked.data;
}

/** Validates a base URL: HTTPS only, and normalised to end with "/" so that paths join under it. */
export function parseHttpsBaseUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`Not a valid URL: ${value}`);
  }
  if (url.protocol !== "https:") throw new TypeError(`Only https:// URLs are allowed, got ${url.protocol}//`);
  if (url.username || url.password) throw new TypeError("The base URL must not contain credentials");
  if (!url.pathname.endsWith("/")) url.pathname += "/";
  return url;
}

function acceptFor(responseType: RequestOptions<unknown>["responseType"]): string {
  if (responseType === "bytes") return "*/*";
  if (responseType === "text") return "text/plain, */*";
  return "application/json";
}

function isNetworkError(error: unknown): boolean {
  return error instanceof Error && "code" in error && typeof error.code === "string";
}
