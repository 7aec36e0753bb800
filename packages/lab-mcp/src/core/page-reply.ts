// The reply every list tool shares: the page as JSON when asked, else the markdown the tool writes
// for it, with the same sentences about the page ("showing 21–40", "More:", past the end). One place,
// so the lists of every service cannot drift apart.
import type { ResponseFormat } from "./inputs.js";
import { briefPage, type Page } from "./paging.js";
import { json } from "./render.js";
import { reply, type ToolReply } from "./tool.js";

/** The envelope fields pageReply reads; a page may carry more (e.g. schemas beside the items). */
type AnyPage = Pick<Page<string, unknown>, "has_more" | "next_offset">;

/**
 * The reply of a list tool: as text either the page's JSON (response_format "json") or what
 * `markdownOf` writes (called only then); as structured content the page, whole with json and
 * without its silent envelope fields with markdown (paging.ts briefPage).
 */
export function pageReply<P extends AnyPage>(
  page: P,
  format: ResponseFormat,
  markdownOf: (page: P) => string,
): ToolReply<P> {
  return format === "json" ? reply(page, json(page)) : reply(briefPage(page), markdownOf(page));
}

/** The line that tells the agent how to read on, or false (dropped by markdown()) on the last page. */
export function moreLine(page: AnyPage): string | false {
  return page.has_more && `More: call again with offset=${page.next_offset}.`;
}

/** The envelope fields the page sentences are written from; total_is_exact where a remote may not count. */
type PageCounts = Pick<Page<string, unknown>, "total" | "count" | "offset"> & { total_is_exact?: boolean };

/** "showing 21–40": which items of the list this page holds (a page with items). */
export function shownRange(page: PageCounts): string {
  return `showing ${page.offset + 1}–${page.offset + page.count}`;
}

/**
 * An empty page of a list that has items: "No folders at offset 80: there are 80. Use a smaller
 * offset." Where the remote gave no count (total_is_exact false) the list ends before the offset.
 */
export function pastTheEnd(what: string, page: PageCounts): string {
  const known = page.total_is_exact === false ? "the list ends before it" : `there are ${page.total}`;
  return `No ${what} at offset ${page.offset}: ${known}. Use a smaller offset.`;
}

/** `record` with only the keys in `fields`, in their order; every key when `fields` is absent. */
export function pickFields<T>(record: T, fields: readonly string[] | undefined): T {
  if (!fields || fields.length === 0 || record === null || typeof record !== "object") return record;
  const source = record as Record<string, unknown>;
  return Object.fromEntries(fields.filter((name) => name in source).map((name) => [name, source[name]])) as T;
}

/** The page with each record under `key` cut to `fields`; the envelope and any other key stay whole. */
export function withFields<P extends Record<string, unknown>>(
  page: P,
  key: string,
  fields: readonly string[] | undefined,
): P {
  const items = page[key];
  if (!fields || fields.length === 0 || !Array.isArray(items)) return page;
  return { ...page, [key]: items.map((item) => pickFields(item, fields)) };
}
