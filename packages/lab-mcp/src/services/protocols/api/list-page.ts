// One page of a list answer in any of its eras (fact sheet 3.2 and 3.4): items under `items`; the
// total under `pagination.total_results`, or at the top level as `total_results` or `total`, or
// nowhere; `current_page` and `next_page`/`prev_page` (URL strings) only hints about page numbering.

import { integerOf, isRecord, type Json, recordsOf, stringOf } from "../records/lenient.js";
import { type ProtocolSummary, readSummary } from "../records/protocols.js";

export interface ListPage {
  items: ProtocolSummary[];
  total?: number;
  totalPages?: number;
  currentPage?: number;
  /** The page_id in prev_page / next_page, when they are URLs that carry one. */
  previousPageId?: number;
  hasNextPage?: boolean;
}

export function readListPage(body: Json): ListPage {
  const pagination = isRecord(body.pagination) ? body.pagination : {};
  const items = recordsOf(body.items)
    .map(readSummary)
    .filter((item): item is ProtocolSummary => item !== undefined);
  const next = pagination.next_page ?? body.next_page;
  return {
    items,
    total: integerOf(pagination.total_results ?? body.total_results ?? body.total ?? pagination.total, 0),
    totalPages: integerOf(pagination.total_pages ?? body.total_pages, 0),
    currentPage: integerOf(pagination.current_page ?? body.current_page, 0),
    previousPageId: pageIdIn(pagination.prev_page ?? body.prev_page),
    hasNextPage:
      next === undefined ? undefined : stringOf(next) !== undefined || integerOf(next) !== undefined,
  };
}

function pageIdIn(link: unknown): number | undefined {
  const text = stringOf(link);
  if (!text) return undefined;
  try {
    return integerOf(new URL(text, "https://example.invalid/").searchParams.get("page_id"), 0);
  } catch {
    return undefined;
  }
}
