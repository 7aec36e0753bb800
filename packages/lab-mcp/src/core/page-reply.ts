// The reply tail every list tool shares: the page as JSON when asked, else the markdown the tool
// writes for it, with the same "More:" line. One place, so the lists cannot drift apart.
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
