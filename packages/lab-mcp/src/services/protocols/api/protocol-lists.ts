// Lists of protocols (GET /api/v3/protocols, a researcher's or a workspace's list in the same envelope):
// offset paging over the repository's numbered pages, whichever number its first page has.

import { type ApiPath, apiPath } from "../../../core/http/api-path.js";
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";
import { type ListPage, listPageSchema } from "../records/list-page.js";
import type { ProtocolSummary } from "../records/protocols.js";

export const MAX_PAGE_SIZE = 100;

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

/**
 * One page of a list, by its place in the list (0 is the first page), whichever way the repository
 * numbers its pages: page_id 1 is documented as the first, yet clients observe 0 as the first with
 * `current_page` reading page_id + 1 (fact sheet 3.4). The numbering is learnt once per client, from
 * the answer for page_id 1, and kept.
 */
export async function listPage(
  client: ProtocolsClient,
  query: ListQuery,
  pageSize: number,
  place: number,
  ctx: ProtocolsCall,
): Promise<ListPage> {
  if (client.pageOrigin === undefined) {
    // Page id 1 tells: it is the first page (1-based), or the second (0-based) when current_page
    // reads 2 or prev_page points at page id 0. Asked anyway when the first page is wanted.
    const probe = await fetchListPage(client, query, pageSize, 1, ctx);
    client.pageOrigin = probe.currentPage === 2 || probe.previousPageId === 0 ? 0 : 1;
    if (place + client.pageOrigin === 1) return probe;
  }
  return fetchListPage(client, query, pageSize, place + client.pageOrigin, ctx);
}

/**
 * The page_id of the first page, for the lists beside search (workspaces) that number their pages the
 * same way: learnt from the first list answer, asked with one small search when none came yet.
 */
export async function firstPageId(client: ProtocolsClient, ctx: ProtocolsCall): Promise<0 | 1> {
  if (client.pageOrigin === undefined) {
    await listPage(client, { filter: "public", orderField: "activity", orderDir: "desc" }, 1, 0, ctx);
  }
  return client.pageOrigin ?? 1;
}

async function fetchListPage(
  client: ProtocolsClient,
  query: ListQuery,
  pageSize: number,
  pageId: number,
  ctx: ProtocolsCall,
) {
  const body = await client.get(query.path ?? apiPath`api/v3/protocols`, ctx, {
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
 * page suggests more, so that has_more holds until the end; `exact` says whether the repository gave it.
 */
export async function listRange(
  client: ProtocolsClient,
  query: ListQuery,
  offset: number,
  limit: number,
  ctx: ProtocolsCall,
): Promise<{ items: ProtocolSummary[]; total: number; exact: boolean }> {
  const plan = pagesFor(offset, limit);
  const [firstPlace, secondPlace] = plan.places;
  const first = await listPage(client, query, plan.pageSize, firstPlace, ctx);
  let last = { page: first, place: firstPlace };
  if (
    secondPlace !== undefined &&
    first.items.length >= plan.pageSize &&
    (first.total === undefined || secondPlace * plan.pageSize < first.total) &&
    (first.totalPages === undefined || secondPlace < first.totalPages)
  ) {
    last = { page: await listPage(client, query, plan.pageSize, secondPlace, ctx), place: secondPlace };
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
  return {
    items,
    total: items.length > 0 ? Math.max(total, offset + items.length) : total,
    exact: first.total !== undefined,
  };
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
