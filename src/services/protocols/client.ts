// The protocol repository's API: one request path for every call (credential, rate limiters, retry,
// timeout), offset paging over its numbered pages, and the PDF view with its own, tighter limit.
import type { z } from "zod";
import type { SessionScoped } from "../../core/context.js";
import { InvalidResponseError, RemoteStatusError } from "../../core/errors.js";
import { noAuth } from "../../core/http/auth.js";
import { type RateLimit, TokenBucket } from "../../core/http/rate-limiter.js";
import { RemoteClient, type RequestScope } from "../../core/http/remote-client.js";
import type { ProtocolsCredential } from "./auth/credential.js";
import type { ProtocolsCredentials } from "./credentials.js";
import {
  type ListResponse,
  listResponseSchema,
  type Profile,
  type Protocol,
  type ProtocolSummary,
  profileResponseSchema,
  protocolResponseSchema,
  type Step,
  stepsResponseSchema,
} from "./types.js";

/** The repository's limits: API requests per user, PDF downloads per user, and per address without one. */
export const API_LIMIT: RateLimit = { requests: 100, windowMs: 60_000 };
export const PDF_SIGNED_IN_LIMIT: RateLimit = { requests: 5, windowMs: 60_000 };
export const PDF_ANONYMOUS_LIMIT: RateLimit = { requests: 3, windowMs: 60_000 };
export const MAX_PAGE_SIZE = 100;
/** The largest PDF read when PROTOCOLS_MAX_PDF_BYTES is not given. */
export const DEFAULT_MAX_PDF_BYTES = 100 * 1024 * 1024;

export const LIST_FILTERS = ["public", "user_public", "user_private", "shared_with_user"] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];

export interface ListQuery {
  filter: ListFilter;
  key?: string;
  orderField: "relevance" | "activity" | "date" | "name" | "id";
  orderDir: "asc" | "desc";
}

export interface PdfDownload {
  bytes: Uint8Array;
  /** The credential it was fetched with; undefined: anonymously. */
  credential: ProtocolsCredential | undefined;
}

export class ProtocolsApi {
  private readonly remotes = new Map<string, { api: RemoteClient; pdf: RemoteClient }>();
  private readonly anonymousPdf: RemoteClient;

  constructor(
    readonly credentials: ProtocolsCredentials,
    private readonly timeoutMs: number,
    /** The largest answer of the API and the largest PDF read (MCP_MAX_RESPONSE_BYTES, PROTOCOLS_MAX_PDF_BYTES). */
    private readonly limits: { maxResponseBytes?: number; maxPdfBytes?: number } = {},
  ) {
    this.anonymousPdf = new RemoteClient({
      baseUrl: this.baseUrl,
      auth: noAuth,
      timeoutMs,
      maxResponseBytes: limits.maxPdfBytes ?? DEFAULT_MAX_PDF_BYTES,
      limiter: new TokenBucket(PDF_ANONYMOUS_LIMIT),
    });
  }

  get baseUrl(): string {
    return this.credentials.config.baseUrl;
  }

  /** One page of GET /api/v3/protocols. */
  async listPage(
    query: ListQuery,
    pageSize: number,
    pageId: number,
    ctx: RequestScope,
  ): Promise<ListResponse> {
    return this.get("api/v3/protocols", listResponseSchema, ctx, {
      filter: query.filter,
      key: query.key,
      order_field: query.orderField,
      order_dir: query.orderDir,
      page_size: pageSize,
      page_id: pageId,
    });
  }

  /**
   * The items at [offset, offset + limit) and the total, from the pages that cover that range: one page
   * when some page size up to 100 covers it, otherwise two pages of `limit`.
   */
  async range(
    query: ListQuery,
    offset: number,
    limit: number,
    ctx: RequestScope,
  ): Promise<{ items: ProtocolSummary[]; total: number }> {
    const plan = pagesFor(offset, limit);
    const first = await this.listPage(query, plan.pageSize, plan.pageIds[0], ctx);
    const items = [...first.items];
    const total = first.pagination.total_results;
    const second = plan.pageIds[1];
    if (
      second !== undefined &&
      (second - 1) * plan.pageSize < total &&
      first.items.length === plan.pageSize
    ) {
      items.push(...(await this.listPage(query, plan.pageSize, second, ctx)).items);
    }
    const start = offset - (plan.pageIds[0] - 1) * plan.pageSize;
    return { items: items.slice(start, start + limit), total };
  }

  async protocol(idOrUri: string, ctx: RequestScope): Promise<Protocol> {
    const body = await this.get(
      `api/v4/protocols/${encodeURIComponent(idOrUri)}`,
      protocolResponseSchema,
      ctx,
    );
    return body.payload;
  }

  async steps(idOrUri: string, ctx: RequestScope): Promise<Step[]> {
    const path = `api/v4/protocols/${encodeURIComponent(idOrUri)}/steps`;
    return (await this.get(path, stepsResponseSchema, ctx)).payload;
  }

  async profile(
    ctx: RequestScope & SessionScoped,
  ): Promise<{ profile: Profile; credential: ProtocolsCredential }> {
    const credential = await this.credentials.required(ctx);
    const body = await this.get("api/v3/session/profile", profileResponseSchema, ctx, undefined, credential);
    return { profile: body.user, credential };
  }

  /**
   * GET /view/<uri>.pdf with the credential in use, or anonymously without one. Waits for a slot of
   * the PDF limit (reporting progress through ctx) rather than failing.
   */
  async pdf(
    uri: string,
    credential: ProtocolsCredential | undefined,
    ctx: RequestScope,
  ): Promise<PdfDownload> {
    const client = credential ? this.remotesFor(credential).pdf : this.anonymousPdf;
    const { body, headers } = await client.request<Uint8Array>(
      { path: `view/${encodeURIComponent(uri)}.pdf`, responseType: "bytes" },
      ctx,
    );
    const type = headers.get("content-type") ?? "";
    if (!isPdf(body) || !/application\/pdf/i.test(type)) {
      throw new InvalidResponseError("The repository answered the PDF view with something that is not a PDF");
    }
    return { bytes: body, credential };
  }

  /** A GET of the API: its status_code looked at first (an error may come with 200), then its shape. */
  private async get<T>(
    path: string,
    schema: z.ZodType<T>,
    ctx: RequestScope & SessionScoped,
    query?: Record<string, string | number | undefined>,
    credential?: ProtocolsCredential,
  ): Promise<T> {
    const signer = credential ?? (await this.credentials.required(ctx));
    const { body } = await this.remotesFor(signer).api.request<unknown>({ path, query }, ctx);
    checkStatusCode(body);
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new InvalidResponseError(
        `The repository answered with an unexpected shape: ${parsed.error.message}`,
      );
    }
    return parsed.data;
  }

  /** One API client and one PDF client, so one limiter of each, per credential. */
  private remotesFor(credential: ProtocolsCredential) {
    let remotes = this.remotes.get(credential.id);
    if (!remotes) {
      const make = (limit: RateLimit, maxResponseBytes: number | undefined) =>
        new RemoteClient({
          baseUrl: this.baseUrl,
          auth: credential,
          timeoutMs: this.timeoutMs,
          maxResponseBytes,
          limiter: new TokenBucket(limit),
        });
      remotes = {
        api: make(API_LIMIT, this.limits.maxResponseBytes),
        pdf: make(PDF_SIGNED_IN_LIMIT, this.limits.maxPdfBytes ?? DEFAULT_MAX_PDF_BYTES),
      };
      this.remotes.set(credential.id, remotes);
    }
    return remotes;
  }
}

/** A PDF starts with "%PDF-". */
export function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 5)).toString("latin1") === "%PDF-";
}

/** The repository's own error codes on a 2xx answer, as the HTTP status they stand for. */
const STATUS_OF_CODE: Record<number, number> = {
  1: 400,
  1218: 401,
  1219: 401,
  1302: 400,
  1404: 404,
  1429: 429,
};

function checkStatusCode(body: unknown): void {
  const code = (body as { status_code?: unknown } | null)?.status_code;
  if (typeof code !== "number" || code === 0) return;
  throw new RemoteStatusError(STATUS_OF_CODE[code] ?? 400, undefined, body);
}

/**
 * The page size and page numbers that cover [offset, offset + limit): a single page when one size up
 * to 100 does it, otherwise the two pages of size `limit` around it.
 */
export function pagesFor(
  offset: number,
  limit: number,
): { pageSize: number; pageIds: [number, ...number[]] } {
  for (let size = limit; size <= MAX_PAGE_SIZE; size++) {
    const page = Math.floor(offset / size);
    if (page === Math.floor((offset + limit - 1) / size)) return { pageSize: size, pageIds: [page + 1] };
  }
  const first = Math.floor(offset / limit) + 1;
  return { pageSize: limit, pageIds: [first, first + 1] };
}
