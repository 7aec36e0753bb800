// The list tools' answers about how many there are, from a Counted page (api/count.ts): the
// conventions' envelope with `total_is_exact` beside `total`, and the markdown lines that say
// "Found 21" only where 21 is the platform's count and "Found at least 11" where it gave none.
import { z } from "zod";
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

/** Past the end: "there are 80" where the count is known, never the offset. */
export function thereAre(counted: { total: number; exact: boolean }): string {
  return counted.exact ? `there are ${counted.total}` : "the list ends before it";
}

/** The counts of a counted page that its lines are written from. */
type PageCounts = Pick<CountedPage<string, unknown>, "total" | "total_is_exact" | "offset" | "count">;

/** Past the end: "No folders at offset 80: there are 80. Use a smaller offset." */
export function pastTheEnd(what: string, page: PageCounts): string {
  return `No ${what} at offset ${page.offset}: ${thereAre({ total: page.total, exact: page.total_is_exact })}. Use a smaller offset.`;
}

/** "Found 21 folders (showing 1–20)", or "Found at least 11 …" where the platform gave no count. */
export function foundLine(what: string, page: PageCounts): string {
  const found = howMany({ total: page.total, exact: page.total_is_exact });
  return `Found ${found} ${what} (showing ${page.offset + 1}–${page.offset + page.count})`;
}
