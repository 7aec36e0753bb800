// The envelope around one page of GET /api/v3/protocols, in the list era of the dialect (fact sheet
// §3.2): a pagination object alone; the recorded 2019 form (top-level totals, `extras`, and a pagination
// object whose next_page and prev_page are URL strings); the 2017-18 docs' top-level totals; or no totals.
import type { Dialect } from "../dialect.js";

export interface ListPage {
  items: unknown[];
  /** The page_id as the caller sent it (or the default), in the dialect's page origin. */
  pageId: number;
  pageSize: number;
  totalResults: number;
  /** The request's URL, from which next_page and prev_page are made. */
  url: URL;
  origin: string;
}

function pageUrl(page: ListPage, pageId: number): string {
  const target = new URL(`${page.url.pathname}${page.url.search}`, page.origin);
  target.searchParams.set("page_id", String(pageId));
  target.searchParams.set("page_size", String(page.pageSize));
  return target.toString();
}

export function listEnvelope(page: ListPage, dialect: Dialect): Record<string, unknown> {
  const { items, pageId, pageSize, totalResults } = page;
  const totalPages = Math.ceil(totalResults / pageSize);
  const first = dialect.pageOrigin;
  // A repository numbered from 0 still reports current_page counted from 1 (§3.4: [HQN] asked page_id 2
  // and read current_page 3).
  const currentPage = pageId - first + 1;
  switch (dialect.listEra) {
    case "absent":
      return { items };
    case "top-level":
      return { items, total: totalResults, total_pages: totalPages };
    case "pagination":
      return {
        items,
        pagination: {
          current_page: currentPage,
          total_pages: totalPages,
          total_results: totalResults,
          page_size: pageSize,
        },
      };
    case "2019":
      return {
        items,
        total: totalResults,
        total_results: totalResults,
        total_pages: totalPages,
        extras: {},
        pagination: {
          current_page: currentPage,
          total_pages: totalPages,
          total_results: totalResults,
          next_page: pageId - first + 1 < totalPages ? pageUrl(page, pageId + 1) : null,
          prev_page: pageId > first ? pageUrl(page, pageId - 1) : null,
          page_size: pageSize,
          first: 0,
          last: totalResults,
          changed_on: null,
        },
      };
  }
}
