// The one way a service talks to its remote: HTTPS only, credentials from an AuthStrategy, a shared
// token bucket, bounded 429 retries for idempotent requests, a 30 s timeout, and cancellation.
import type { ZodType } from "zod";
import { ConnectionError, InvalidResponseError, RemoteStatusError, RemoteTimeoutError } from "../errors.js";
import type { AuthStrategy } from "./auth.js";
import { type RateLimit, sleep, TokenBucket } from "./rate-limiter.js";
import { DEFAULT_RETRY_POLICY, parseRetryAfter, type RetryPolicy, retryDelay } from "./retry.js";

export const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_REDIRECTS = 5;
const MAX_ERROR_BODY_CHARS = 4096;

/** What a single call brings along: its cancellation signal and where to report waits and debug lines. */
export interface RequestScope {
  signal?: AbortSignal;
  /** Heard when the call must wait (rate limit or Retry-After) for this many milliseconds. */
  onWait?(waitMs: number, reason: string): void;
  debug?(message: string): void;
}

export interface RemoteClientOptions {
  baseUrl: string;
  auth: AuthStrategy;
  timeoutMs?: number;
  /** Client-side limit; share one bucket between all clients that use the same credential. */
  limiter?: TokenBucket;
  rateLimit?: RateLimit;
  retry?: RetryPolicy;
  userAgent?: string;
}

type Query = Record<string, string | number | boolean | undefined | null | Array<string | number>>;

export interface RequestOptions<T> {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path relative to the base URL, e.g. "users/search". */
  path: string;
  query?: Query;
  /** Sent as JSON, or as form data when it is URLSearchParams. */
  body?: unknown;
  /** Only idempotent requests are retried after a 429. Defaults to true for GET, PUT and DELETE. */
  idempotent?: boolean;
  responseType?: "json" | "text" | "bytes";
  /** Checks the shape of a JSON body; a mismatch is an InvalidResponseError. */
  schema?: ZodType<T>;
  headers?: Record<string, string>;
}

export interface RemoteResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

export class RemoteClient {
  readonly baseUrl: URL;
  private readonly auth: AuthStrategy;
  private readonly timeoutMs: number;
  private readonly limiter: TokenBucket | undefined;
  private readonly retry: RetryPolicy;
  private readonly userAgent: string;

  constructor(options: RemoteClientOptions) {
    this.baseUrl = parseHttpsBaseUrl(options.baseUrl);
    this.auth = options.auth;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.limiter = options.limiter ?? (options.rateLimit ? new TokenBucket(options.rateLimit) : undefined);
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

    for (let attempt = 0; ; attempt++) {
      await this.limiter?.take(scope.signal, (ms) => scope.onWait?.(ms, "client-side rate limit"));
      const { response, authorization } = await this.send(method, url, options, scope);
      this.observeRateHeaders(response.headers);

      if (response.status === 401 && !renewedAuth && this.auth.renewAfterUnauthorized) {
        renewedAuth = true;
        await response.body?.cancel();
        if (await this.auth.renewAfterUnauthorized(scope.signal, authorization)) continue;
        throw new RemoteStatusError(401);
      }
      if (response.status === 429) {
        await response.body?.cancel();
        const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
        if (retryAfterMs !== undefined) this.limiter?.pause(retryAfterMs);
        const retryable = retryAfterMs === undefined || retryAfterMs <= this.retry.maxRetryAfterMs;
        if (!idempotent || attempt >= this.retry.maxRetries || !retryable) {
          throw new RemoteStatusError(429, retryAfterMs);
        }
        const delay = retryDelay(attempt, retryAfterMs, this.retry);
        scope.debug?.(`429 from ${method} ${options.path}; retry ${attempt + 1} in ${Math.round(delay)} ms`);
        scope.onWait?.(delay, "remote rate limit (429)");
        await sleep(delay, scope.signal);
        continue;
      }
      if (!response.ok) {
        throw new RemoteStatusError(response.status, undefined, await this.readErrorBody(response, scope));
      }
      const body = await this.readBody(response, options, scope);
      return { status: response.status, headers: response.headers, body };
    }
  }

  /**
   * One HTTP exchange (following HTTPS redirects), bounded by the timeout and the caller's signal. Also
   * says which Authorization header it sent, so that a strategy renewing after a 401 can tell whether
   * another call has renewed the credential already.
   */
  private async send(
    method: string,
    url: URL,
    options: RequestOptions<unknown>,
    scope: RequestScope,
  ): Promise<{ response: Response; authorization: string | null }> {
    const headers = new Headers({ "user-agent": this.userAgent, accept: acceptFor(options.responseType) });
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    await this.auth.authorize(headers, scope.signal);
    let body: string | URLSearchParams | undefined;
    if (options.body instanceof URLSearchParams) body = options.body;
    else if (options.body !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(options.body);
    }

    const started = Date.now();
    let target = url;
    for (let redirects = 0; ; redirects++) {
      const response = await this.withDeadline(scope, (signal) =>
        fetch(target, { method, headers, body, signal, redirect: "manual" }),
      );
      const location = response.headers.get("location");
      if (response.status < 300 || response.status >= 400 || !location || redirects >= MAX_REDIRECTS) {
        scope.debug?.(`${method} ${target.pathname} -> ${response.status} in ${Date.now() - started} ms`);
        return { response, authorization: headers.get("authorization") };
      }
      await response.body?.cancel();
      const next = new URL(location, target);
      if (next.protocol !== "https:") throw new ConnectionError("Refused a redirect to a non-HTTPS URL");
      // Credentials go only to the origin they were made for.
      if (next.origin !== target.origin) headers.delete("authorization");
      target = next;
    }
  }

  private async readBody<T>(response: Response, options: RequestOptions<T>, scope: RequestScope): Promise<T> {
    const raw = await this.withDeadline(scope, async () => {
      if (options.responseType === "bytes") return new Uint8Array(await response.arrayBuffer());
      return response.text();
    });
    if (options.responseType === "bytes" || options.responseType === "text") return raw as T;
    let parsed: unknown;
    try {
      parsed = (raw as string).length === 0 ? undefined : JSON.parse(raw as string);
    } catch {
      throw new InvalidResponseError(`The remote answered ${response.status} with a body that is not JSON`);
    }
    if (!options.schema) return parsed as T;
    const checked = options.schema.safeParse(parsed);
    if (!checked.success) {
      throw new InvalidResponseError(
        `The remote answered with an unexpected shape: ${checked.error.message}`,
      );
    }
    return checked.data;
  }

  /** The start of an error response's body, parsed as JSON when it is; undefined when unreadable. */
  private async readErrorBody(response: Response, scope: RequestScope): Promise<unknown> {
    try {
      const text = (await this.withDeadline(scope, () => response.text())).slice(0, MAX_ERROR_BODY_CHARS);
      try {
        return JSON.parse(text);
      } catch {
        return text;
      }
    } catch {
      return undefined;
    }
  }

  /**
   * Runs one step under the request timeout and the caller's cancellation, telling the two apart:
   * a timeout is RemoteTimeoutError, a cancellation is re-thrown as the abort reason, and a network
   * failure is ConnectionError.
   */
  private async withDeadline<R>(scope: RequestScope, step: (signal: AbortSignal) => Promise<R>): Promise<R> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.timeoutMs);
    const onCancel = () => controller.abort(scope.signal?.reason);
    scope.signal?.addEventListener("abort", onCancel, { once: true });
    try {
      scope.signal?.throwIfAborted();
      return await step(controller.signal);
    } catch (error) {
      if (timedOut) throw new RemoteTimeoutError(this.timeoutMs);
      if (scope.signal?.aborted) throw scope.signal.reason;
      if (error instanceof TypeError || isNetworkError(error)) {
        throw new ConnectionError(describeNetworkError(error));
      }
      throw error;
    } finally {
      clearTimeout(timer);
      scope.signal?.removeEventListener("abort", onCancel);
    }
  }

  private observeRateHeaders(headers: Headers): void {
    if (!this.limiter) return;
    const number = (name: string) => {
      const value = headers.get(name);
      return value === null || value.trim() === "" || Number.isNaN(Number(value)) ? undefined : Number(value);
    };
    const reset = number("x-rate-limit-reset");
    this.limiter.observe({
      limit: number("x-rate-limit-limit"),
      remaining: number("x-rate-limit-remaining"),
      resetMs: reset === undefined ? undefined : reset * 1000,
    });
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

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause instanceof Error && "code" in cause ? ` (${String(cause.code)})` : "";
  return `The connection to the remote failed${code}`;
}
