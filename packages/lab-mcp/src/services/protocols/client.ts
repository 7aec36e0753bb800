// The protocol repository's API: one request path for every call (credential, rate limiters, retry,
// timeout), offset paging over its numbered pages, and the PDF view with its own, tighter limit.

import type { CallScope } from "../../core/credentials/call-scope.js";
import { InvalidResponseError, RemoteStatusError } from "../../core/errors.js";
import { type ApiPath, apiPath } from "../../core/http/api-path.js";
import { noAuth } from "../../core/http/auth.js";
import { ClientCache } from "../../core/http/client-cache.js";
import { RemoteClient, type RequestScope } from "../../core/http/remote-client.js";
import { RateBudget } from "../../core/state/budget.js";
import type { RateLimit, SharedState } from "../../core/state/shared-state.js";
import {
  AUTH_FAILURE_CODES,
  failureCodeOf,
  type RemoteWarning,
  statusOfCode,
  warningOf,
} from "./api/answers.js";
import { FULL_PDF, type PdfView, pdfQuery } from "./api/pdf-view.js";
import type { ProtocolsCredential } from "./auth/credential.js";
import type { ProtocolsCredentialSource } from "./credential-source.js";
import { type ListPage, listPageSchema } from "./records/list-page.js";
import {
  type Profile,
  type Protocol,
  type ProtocolSummary,
  profileSchema,
  protocolSchema,
  type Step,
  stepSchema,
} from "./records/protocols.js";
import { orderSteps } from "./records/step-order.js";
import { isRecord, type Json, list as listOf } from "./records/values.js";

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
  /** `user_all` (every kind of the user's own) only on a researcher's list (`path`). */
  filter: ListFilter | "user_all";
  /** Another list of protocols in the same envelope, e.g. a researcher's or a workspace's; default /api/v3/protocols. */
  path?: ApiPath;
  key?: string;
  orderField: "relevance" | "activity" | "date" | "name" | "id";
  orderDir: "asc" | "desc";
}

/** What a call brings: its signal and waits, the client session it belongs to, and where to log. */
type Query = Record<string, string | number | undefined>;

export interface PdfDownload {
  bytes: Uint8Array;
  /** The credential it was fetched with; undefined: anonymously. */
  credential: ProtocolsCredential | undefined;
}

export class ProtocolsApi {
  private readonly remotes = new ClientCache<{
    credential: ProtocolsCredential;
    api: RemoteClient;
    pdf: RemoteClient;
  }>();
  private readonly anonymousPdf: RemoteClient;
  /** 1 when page_id 1 is the first page (as documented), 0 when page_id 0 is; undefined until seen. */
  private pageOrigin: 0 | 1 | undefined;
  /** The last warning_code per credential id. */
  private readonly warnings = new ClientCache<RemoteWarning>();

  constructor(
    readonly credentials: ProtocolsCredentialSource,
    private readonly timeoutMs: number,
    /** Rate budgets: this process's, or the fleet's. */
    private readonly state: SharedState,
    /** The largest answer of the API and the largest PDF read (MCP_MAX_RESPONSE_BYTES, PROTOCOLS_MAX_PDF_BYTES). */
    private readonly limits: { maxResponseBytes?: number; maxPdfBytes?: number } = {},
  ) {
    this.anonymousPdf = new RemoteClient({
      baseUrl: this.baseUrl,
      auth: noAuth,
      timeoutMs,
      maxResponseBytes: limits.maxPdfBytes ?? DEFAULT_MAX_PDF_BYTES,
      // Counted per address by the repository: every replica behind one address shares it.
      limiter: new RateBudget(state.budget(`protocols:${this.baseUrl}:anonymous:pdf`, PDF_ANONYMOUS_LIMIT)),
    });
  }

  get baseUrl(): string {
    return this.credentials.config.baseUrl;
  }

  /**
   * One page of GET /api/v3/protocols, by its place in the list (0 is the first page), whichever way the
   * repository numbers its pages: page_id 1 is documented as the first, yet clients observe 0 as the
   * first with `current_page` reading page_id + 1 (fact sheet 3.4). The numbering is learnt once, from
   * the answer for page_id 1, and kept.
   */
  async listPage(query: ListQuery, pageSize: number, place: number, ctx: CallScope): Promise<ListPage> {
    if (this.pageOrigin === undefined) {
      // Page id 1 tells: it is the first page (1-based), or the second (0-based) when current_page
      // reads 2 or prev_page points at page id 0. Asked anyway when the first page is wanted.
      const probe = await this.fetchListPage(query, pageSize, 1, ctx);
      this.pageOrigin = probe.currentPage === 2 || probe.previousPageId === 0 ? 0 : 1;
      if (place + this.pageOrigin === 1) return probe;
    }
    return this.fetchListPage(query, pageSize, place + this.pageOrigin, ctx);
  }

  /**
   * The page_id of the first page, for the lists beside search (workspaces) that number their pages the
   * same way: learnt from the first list answer, asked with one small search when none came yet.
   */
  async firstPageId(ctx: CallScope): Promise<0 | 1> {
    if (this.pageOrigin === undefined) {
      await this.listPage({ filter: "public", orderField: "activity", orderDir: "desc" }, 1, 0, ctx);
    }
    return this.pageOrigin ?? 1;
  }

  private async fetchListPage(query: ListQuery, pageSize: number, pageId: number, ctx: CallScope) {
    const body = await this.get(query.path ?? apiPath`api/v3/protocols`, ctx, {
      filter: query.filter,
      key: query.key,
      order_field: query.orderField,
      order_dir: query.orderDir,
      page_size: pageSize,
      page_id: pageId,
    });
    return listPageSchema.parse(body);
  }

  /**
   * The items at [offset, offset + limit) and the total, from the pages that cover that range: one page
   * when some page size up to 100 covers it, otherwise two pages of `limit`. An item the repository
   * repeats is kept once. Without a total in the answer, it is what was seen, plus one while a full
   * page suggests more, so that has_more holds until the end.
   */
  async range(
    query: ListQuery,
    offset: number,
    limit: number,
    ctx: CallScope,
  ): Promise<{ items: ProtocolSummary[]; total: number }> {
    const plan = pagesFor(offset, limit);
    const [firstPlace, secondPlace] = plan.places;
    const first = await this.listPage(query, plan.pageSize, firstPlace, ctx);
    let last = { page: first, place: firstPlace };
    if (
      secondPlace !== undefined &&
      first.items.length >= plan.pageSize &&
      (first.total === undefined || secondPlace * plan.pageSize < first.total) &&
      (first.totalPages === undefined || secondPlace < first.totalPages)
    ) {
      last = { page: await this.listPage(query, plan.pageSize, secondPlace, ctx), place: secondPlace };
    }
    const fetched = last.page === first ? first.items : [...first.items, ...last.page.items];
    const start = offset - firstPlace * plan.pageSize;
    const items = uniqueById(fetched).slice(start, start + limit);
    const seen = last.place * plan.pageSize + last.page.items.length;
    const mayHaveMore =
      last.page.items.length >= plan.pageSize &&
      last.page.hasNextPage !== false &&
      (last.page.totalPages === undefined || last.place + 1 < last.page.totalPages);
    const total = first.total ?? seen + (mayHaveMore ? 1 : 0);
    return { items, total: items.length > 0 ? Math.max(total, offset + items.length) : total };
  }

  /**
   * GET /api/v4/protocols/{id or uri} as markdown: the record under `payload` (v4) or `protocol` (v3),
   * its steps in order; when it came without them (`steps` null or absent) and `withSteps`, from the
   * steps endpoint.
   */
  async protocol(idOrUri: string, ctx: CallScope, { withSteps = true } = {}): Promise<Protocol> {
    const path = protocolPath(idOrUri);
    const body = await this.get(path, ctx, { content_format: "markdown" }, undefined, true);
    const raw = isRecord(body.payload) ? body.payload : isRecord(body.protocol) ? body.protocol : undefined;
    const protocol = raw ? protocolSchema.safeParse(raw).data : undefined;
    if (!protocol) throw new InvalidResponseError("The repository answered without a protocol record");
    if (protocol.steps) protocol.steps = orderSteps(protocol.steps);
    else if (withSteps) {
      protocol.steps = await this.steps(idOrUri, ctx);
      protocol.number_of_steps = protocol.steps.length;
    }
    return protocol;
  }

  /** GET /api/v4/protocols/{id or uri}/steps as markdown: a list under `payload` (observed) or `steps`. */
  async steps(idOrUri: string, ctx: CallScope): Promise<Step[]> {
    const path = protocolPath(idOrUri, "steps");
    const body = await this.get(path, ctx, { content_format: "markdown" }, undefined, true);
    const list = [body.payload, body.steps, isRecord(body.payload) ? body.payload.steps : undefined].find(
      Array.isArray,
    );
    if (!list) throw new InvalidResponseError("The repository answered without a list of steps");
    return orderSteps(listOf(stepSchema).parse(list));
  }

  async profile(
    ctx: CallScope,
  ): Promise<{ profile: Profile; credential: ProtocolsCredential; warning?: RemoteWarning }> {
    const credential = await this.credentials.required(ctx);
    const body = await this.get(apiPath`api/v3/session/profile`, ctx, undefined, credential);
    const user = body.user ?? body.payload;
    if (!isRecord(user)) throw new InvalidResponseError("The repository answered without a user");
    return { profile: profileSchema.parse(user), credential, warning: this.warnings.peek(credential.id) };
  }

  /**
   * GET /view/<uri>.pdf with the credential in use, or anonymously without one, in the view asked for
   * (compact, or one part only). Waits for a slot of the PDF limit (reporting progress through ctx)
   * rather than failing: every view counts against the same 5 a minute.
   */
  async pdf(
    uri: string,
    credential: ProtocolsCredential | undefined,
    ctx: RequestScope,
    view: PdfView = FULL_PDF,
  ): Promise<PdfDownload> {
    const client = credential ? this.remotesFor(credential).pdf : this.anonymousPdf;
    const { body, headers } = await client.request<Uint8Array>(
      { path: apiPath`view/${uri}.pdf`, query: pdfQuery(view), responseType: "bytes" },
      ctx,
    );
    const type = headers.get("content-type") ?? "";
    if (!isPdf(body) || !/application\/pdf/i.test(type)) {
      throw new InvalidResponseError("The repository answered the PDF view with something that is not a PDF");
    }
    return { bytes: body, credential };
  }

  /** A GET of the API as a JSON object (see `send`). */
  private get(
    path: ApiPath,
    ctx: CallScope,
    query?: Record<string, string | number | undefined>,
    credential?: ProtocolsCredential,
    asksForOneProtocol = false,
  ): Promise<Json> {
    return this.send({ path, query }, ctx, { credential, asksForOneProtocol });
  }

  /**
   * A request of the API, answered with a JSON object. Its status_code is read whatever the HTTP status:
   * 1218/1219 (an invalid or expired token, sent with HTTP 400) renew an OAuth sign-in and send once more,
   * and are the authentication failure otherwise; another code is the error it stands for. A
   * warning_code is logged to the client and kept for the profile.
   */
  async send(
    request: { method?: "GET" | "POST" | "PUT" | "DELETE"; path: ApiPath; query?: Query; body?: unknown },
    ctx: CallScope,
    {
      credential,
      asksForOneProtocol = false,
    }: { credential?: ProtocolsCredential; asksForOneProtocol?: boolean } = {},
  ): Promise<Json> {
    const signer = credential ?? (await this.credentials.required(ctx));
    for (let attempt = 0; ; attempt++) {
      // The Authorization this request goes with, so that a renewal is skipped when another call did it.
      const sent = signer.renewAfterUnauthorized ? await authorizationOf(signer, ctx.signal) : undefined;
      let body: unknown;
      let httpStatus: number | undefined;
      try {
        body = (await this.remotesFor(signer).api.request<unknown>(request, ctx)).body;
      } catch (error) {
        if (!(error instanceof RemoteStatusError) || error.status === 401 || error.status === 429)
          throw error;
        if (failureCodeOf(error.body) === undefined) throw error;
        body = error.body;
        httpStatus = error.status;
      }
      const code = failureCodeOf(body);
      if (code !== undefined && AUTH_FAILURE_CODES.has(code)) {
        const renewed = attempt === 0 && (await signer.renewAfterUnauthorized?.(ctx.signal, sent)) === true;
        if (renewed) continue;
        throw new RemoteStatusError(401);
      }
      if (code !== undefined) {
        throw new RemoteStatusError(statusOfCode(code, httpStatus, asksForOneProtocol), undefined, body);
      }
      if (!isRecord(body))
        throw new InvalidResponseError("The repository answered with something that is not a JSON object");
      await this.noteWarning(body, signer, ctx);
      return body;
    }
  }

  /** A warning_code (e.g. the token expires in 24 days): a log warning, and kept for the profile. */
  private async noteWarning(body: Json, credential: ProtocolsCredential, ctx: CallScope): Promise<void> {
    const warning = warningOf(body);
    if (!warning) return;
    const known = this.warnings.peek(credential.id);
    this.warnings.set(credential.id, warning);
    // Said once: every answer carries it until the token is renewed.
    if (known?.code === warning.code && known.message === warning.message) return;
    await ctx.log?.("warning", `The protocol repository warns (code ${warning.code}): ${warning.message}`);
  }

  /**
   * One API client and one PDF client per credential, each on its rate budget (shared by the fleet).
   * The clients sign with the credential object they were made for: another object under the same id
   * (a fleet's sign-in names every session of it alike, e.g. after a sign-in again) gets clients of its
   * own, or its requests would go out with the other session's tokens while it renews its own.
   */
  private remotesFor(credential: ProtocolsCredential) {
    const known = this.remotes.peek(credential.id);
    if (known?.credential === credential) return this.remotes.obtain(credential.id, () => known);
    const make = (kind: string, limit: RateLimit, maxResponseBytes: number | undefined) =>
      new RemoteClient({
        baseUrl: this.baseUrl,
        auth: credential,
        timeoutMs: this.timeoutMs,
        maxResponseBytes,
        limiter: new RateBudget(
          this.state.budget(`protocols:${this.baseUrl}:${credential.id}:${kind}`, limit),
        ),
      });
    const made = {
      credential,
      api: make("api", API_LIMIT, this.limits.maxResponseBytes),
      pdf: make("pdf", PDF_SIGNED_IN_LIMIT, this.limits.maxPdfBytes ?? DEFAULT_MAX_PDF_BYTES),
    };
    this.remotes.set(credential.id, made);
    return made;
  }
}

/**
 * The v4 path of a protocol reference as protocolRef gives it: "<id, uri or DOI name>" or, for an exact
 * version, "<...>/v2" or "<...>/latest" (fact sheet §4.1), each part one path segment.
 */
export function protocolPath(ref: string, below?: "steps"): ApiPath {
  const [base = ref, version] = ref.split("/");
  if (version === undefined) {
    return below ? apiPath`api/v4/protocols/${base}/${below}` : apiPath`api/v4/protocols/${base}`;
  }
  return below
    ? apiPath`api/v4/protocols/${base}/${version}/${below}`
    : apiPath`api/v4/protocols/${base}/${version}`;
}

/** A PDF starts with "%PDF-". */
export function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 5)).toString("latin1") === "%PDF-";
}

/** The Authorization header a credential signs with now. */
async function authorizationOf(
  credential: ProtocolsCredential,
  signal?: AbortSignal,
): Promise<string | null> {
  const headers = new Headers();
  await credential.authorize(headers, signal);
  return headers.get("authorization");
}

/** Items with an id seen before on these pages are left out: the repository may repeat one across pages. */
function uniqueById(items: ProtocolSummary[]): ProtocolSummary[] {
  const seen = new Set<number>();
  return items.filter((item) => !seen.has(item.id) && seen.add(item.id));
}

/**
 * The page size and the places of the pages (0 is the first) that cover [offset, offset + limit): a
 * single page when one size up to 100 does it, otherwise the two pages of size `limit` around it.
 */
export function pagesFor(offset: number, limit: number): { pageSize: number; places: [number, ...number[]] } {
  for (let size = limit; size <= MAX_PAGE_SIZE; size++) {
    const page = Math.floor(offset / size);
    if (page === Math.floor((offset + limit - 1) / size)) return { pageSize: size, places: [page] };
  }
  const first = Math.floor(offset / limit);
  return { pageSize: limit, places: [first, first + 1] };
}
