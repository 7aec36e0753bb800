// The reply tail every list tool shares: the page as JSON when asked, else the markdown the tool
// writes for it, with the same "More:" line. One place, so the lists cannot drift apart.
import type { ResponseFormat } from "./inputs.js";
import type { Page } from "./paging.js";
import { json } from "./render.js";
import { reply, type ToolReply } from "./tool.js";

/** The envelope fields pageReply reads; a page may carry more (e.g. schemas beside the items). */
type AnyPage = Pick<Page<string, unknown>, "has_more" | "next_offset">;

/**
 * The reply of a list tool: the page itself as structured content, and as text either the page's JSON
 * (response_format "json") or what `markdownOf` writes (called only then).
 */
export function pageReply<P extends AnyPage>(
  page: P,
  format: ResponseFormat,
  markdownOf: (page: P) => string,
): ToolReply<P> {
  return reply(page, format === "json" ? json(page) : markdownOf(page));
}

/** The line that tells the agent how to read on, or false (dropped by markdown()) on the last page. */
export function moreLine(page: AnyPage): string | false {
  return page.has_more && `More: call again with offset=${page.next_offset}.`;
}
