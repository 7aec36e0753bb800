// The lab data platform's client: one request path for every call (the call's credential, its rate
// limiter, retry, timeout), and offset paging over its cursor lists. Transport only: the credential
// comes with the call (decided at the tool-call boundary); the client never climbs a ladder.

import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { CursorPager } from "../../core/cursor-pager.js";
import { type ApiPath, apiPath } from "../../core/http/api-path.js";
import { ClientCache } from "../../core/http/client-cache.js";
import { RemoteClient, type RequestOptions } from "../../core/http/remote-client.js";
import { RateBudget } from "../../core/state/budget.js";
import type { SharedState } from "../../core/state/shared-state.js";
import { type Counted, countOf } from "./api/count.js";
import type { LabdataCredential } from "./auth/credential.js";
import type { LabdataCall } from "./call.js";
import type { LabdataCredentialSource } from "./credential-source.js";
import type { NewAnnotation } from "./genbank/platform.js";
import {
  type DnaSequence,
  dnaSequenceSchema,
  type Folder,
  folderSchema,
  type LabUser,
  listSchema,
  type Project,
  projectSchema,
  userSchema,
} from "./records/platform.js";
import type { WarehouseAddress } from "./warehouse/address.js";
import { WarehouseLogins } from "./warehouse/logins.js";
import { Warehouse } from "./warehouse/warehouse.js";

/** The platform's default limit: 100 requests per 10 s per user or app. */
const RATE_LIMIT = { requests: 100, windowMs: 10_000 };

/**
 * The rate budget of a credential on the platform at `baseUrl`, shared by every client (and replica)
 * that uses it: the API's requests, and the token requests of an app, which the platform counts too.
 */
export function labdataBudget(state: SharedState, baseUrl: string, credentialId: string): RateBudget {
  return new RateBudget(state.budget(`labdata:${baseUrl}:${credentialId}`, RATE_LIMIT));
}
const MAX_PAGE_SIZE = 100;

export interface SequenceFilters {
  nameIncludes?: string;
  folderId?: string;
  projectId?: string;
  /** The OpenAPI document's values: ANY_ARCHIVED_OR_NOT_ARCHIVED lists archived and live ones. */
  archiveReason: "NOT_ARCHIVED" | "ANY_ARCHIVED_OR_NOT_ARCHIVED";
  sort: string;
  /** The document's range, e.g. "> 2026-04-30T23:59:59.999Z AND < 2026-06-01T00:00:00.000Z". */
  createdAt?: string;
  /** Comma-separated user ids. */
  creatorIds?: string;
}

export interface NewDnaSequence {
  name: string;
  bases: string;
  isCircular: boolean;
  folderId: string;
  aliases: string[];
  annotations: NewAnnotation[];
}

/** Where the tenant's warehouse is, and the key that names each person's login in the shared state. */
export interface WarehouseSettings {
  address: WarehouseAddress | undefined;
  loginNameKey: Buffer;
}

export class LabdataClient {
  private readonly remotes = new ClientCache<RemoteClient>();
  /** Offset paging over the platform's cursors, the cache in the shared state (search-bases pages with it too). */
  readonly pager: CursorPager;
  /** The tenant's data warehouse, queried as the caller with a login minted through this client. */
  readonly warehouse: Warehouse;

  constructor(
    readonly baseUrl: string,
    private readonly timeoutMs: number,
    /** Where calls get their credential: climbed at the tool-call boundary, never by this client. */
    readonly credentials: LabdataCredentialSource,
    /** Rate budgets and cursors: this process's, or the fleet's. */
    private readonly state: SharedState,
    private readonly maxResponseBytes?: number,
    warehouse?: WarehouseSettings,
  ) {
    this.pager = new CursorPager({ maxPageSize: MAX_PAGE_SIZE, cursors: state.cursors });
    this.warehouse = new Warehouse(this, {
      address: warehouse?.address,
      logins: new WarehouseLogins(state.secrets, baseUrl, warehouse?.loginNameKey ?? randomBytes(32)),
      timeoutMs,
    });
  }

  /** Who the call's credential signs in as (users/me). */
  async me(ctx: LabdataCall): Promise<LabUser> {
    return this.get(apiPath`api/v2/users/me`, userSchema, ctx);
  }

  /** The operator's credential everyone acts as, when one is configured. */
  get configuredCredential(): string | undefined {
    return this.credentials.configuredDescription;
  }

  async getSequence(id: string, ctx: LabdataCall): Promise<DnaSequence> {
    return this.get(apiPath`api/v2/dna-sequences/${id}`, dnaSequenceSchema, ctx);
  }

  async createSequence(sequence: NewDnaSequence, ctx: LabdataCall): Promise<DnaSequence> {
    return (
      await this.send(
        { method: "POST", path: apiPath`api/v2/dna-sequences`, body: sequence, schema: dnaSequenceSchema },
        ctx,
      )
    ).body;
  }

  listSequences(filters: SequenceFilters, offset: number, limit: number, ctx: LabdataCall) {
    return this.list<DnaSequence>(
      "dnaSequences",
      apiPath`api/v2/dna-sequences`,
      dnaSequenceSchema,
      { ...filters },
      offset,
      limit,
      ctx,
    );
  }

  listProjects(offset: number, limit: number, ctx: LabdataCall) {
    return this.list<Project>("projects", apiPath`api/v2/projects`, projectSchema, {}, offset, limit, ctx);
  }

  listFolders(projectId: string | undefined, offset: number, limit: number, ctx: LabdataCall) {
    return this.list<Folder>(
      "folders",
      apiPath`api/v2/folders`,
      folderSchema,
      { projectId },
      offset,
      limit,
      ctx,
    );
  }

  /** One record; the API modules of other resources (api/) read through this and list(). */
  async get<T>(path: ApiPath, schema: z.ZodType<T>, ctx: LabdataCall): Promise<T> {
    return (await this.send({ path, schema }, ctx)).body;
  }

  async send<T>(options: RequestOptions<T>, ctx: LabdataCall) {
    return this.remoteFor(ctx.credential).request(options, ctx);
  }

  /**
   * Offset paging over the platform's pageSize/nextToken lists, counted as api/count.ts says: the
   * Result-Count where the platform sent one, the length where the list ended, else at least.
   */
  async list<T>(
    key: string,
    path: ApiPath,
    itemSchema: z.ZodType<T>,
    query: Record<string, string | undefined>,
    offset: number,
    limit: number,
    ctx: LabdataCall,
  ): Promise<Counted<T>> {
    const { credential } = ctx;
    const remote = this.remoteFor(credential);
    const schema = listSchema(key, itemSchema);
    const queryKey = JSON.stringify([this.baseUrl, credential.id, path, query]);
    let reported: number | undefined;
    const { items, end } = await this.pager.page<T>(
      queryKey,
      offset,
      limit,
      async (cursor, pageSize) => {
        const response = await remote.request(
          {
            path,
            query: { ...query, pageSize, nextToken: cursor },
            schema: schema as z.ZodType<Record<string, unknown>>,
          },
          ctx,
        );
        const items = (response.body[key] as T[] | undefined) ?? [];
        const nextToken = response.body.nextToken as string | undefined;
        reported = resultCount(response.headers);
        return {
          items,
          nextCursor: nextToken && items.length > 0 ? nextToken : undefined,
          total: reported ?? 0,
        };
      },
      (done, target) =>
        void ctx.progress?.(done / target, `Skipping to offset ${target}: ${done} of ${target} read`),
    );
    return countOf(items, offset, reported, end);
  }

  /** One client per credential, on the credential's rate budget (shared by the fleet, per base URL). */
  private remoteFor(credential: LabdataCredential): RemoteClient {
    return this.remotes.obtain(
      credential.id,
      () =>
        new RemoteClient({
          baseUrl: this.baseUrl,
          auth: credential,
          timeoutMs: this.timeoutMs,
          maxResponseBytes: this.maxResponseBytes,
          limiter: labdataBudget(this.state, this.baseUrl, credential.budgetId ?? credential.id),
        }),
    );
  }
}

/** The Result-Count header (Run-Count, as the document names it for assay runs), when it holds a count. */
export function resultCount(headers: Headers): number | undefined {
  const header = (headers.get("result-count") ?? headers.get("run-count"))?.trim();
  const value = Number(header);
  return header && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}
