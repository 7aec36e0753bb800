// The list tools' answers about how many there are, from a Counted page (api/count.ts): the
// conventions' envelope with `total_is_exact` beside `total`, and the markdown lines that say
// "Found 21" only where 21 is the platform's count and "Found at least 11" where it gave none.
import { z } from "zod";
import { shownRange } from "../../core/page-reply.js";
import { type Page, pageOf, pageShape } from "../../core/paging.js";
import type { Counted } from "./api/count.js";

export type CountedPage<K extends string, T> = Page<K, T> & { total_is_exact: boolean };

/** The envelope of a counted page, with total_is_exact after the conventions' fields. */
export function countedPage<K extends string, T>(
  itemsKey: K,
  counted: Counted<T>,
  offset: number,
): CountedPage<K, T> {
  return { ...pageOf(itemsKey, counted.items, counted.total, offset), total_is_exact: counted.exact };
}

/** The output schema of countedPage. */
export function countedPageShape<K extends string, Item extends z.ZodType>(itemsKey: K, item: Item) {
  return { ...pageShape(itemsKey, item), total_is_exact: z.boolean() };
}

/** "21" or "at least 11". */
export function howMany(counted: { total: number; exact: boolean }): string {
  return counted.exact ? `${counted.total}` : `at least ${counted.total}`;
}

/** The counts of a counted page that its lines are written from. */
type PageCounts = Pick<CountedPage<string, unknown>, "total" | "total_is_exact" | "offset" | "count">;

/** "Found 21 folders (showing 1–20)", or "Found at least 11 …" where the platform gave no count. */
export function foundLine(what: string, page: PageCounts): string {
  const found = howMany({ total: page.total, exact: page.total_is_exact });
  return `Found ${found} ${what} (${shownRange(page)})`;
}
