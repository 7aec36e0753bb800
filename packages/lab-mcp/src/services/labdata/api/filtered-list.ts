// Lists the platform filters only in part. When it filters everything asked, a page is read through
// the client's cursor pager (one remote page per tool page, total from Result-Count). When a filter
// exists only here (a folder, a name fragment, a status, a project of a run) or a list spans several
// schemas, the remote pages are walked to the end (at most MAX_SCANNED records, so the total is exact
// below that) and the offset is applied to what passed the filter.

import type { z } from "zod";
import type { ApiPath } from "../../../core/http/api-path.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
import { listSchema } from "../records/platform.js";
import type { Counted } from "./count.js";

/** Records read at most to answer one filtered page: ten remote pages. */
export const MAX_SCANNED = 1000;
const PAGE_SIZE = 100;
/** Remote pages read at most, whatever their size: a remote serving short pages cannot stretch the walk. */
const MAX_PAGES = MAX_SCANNED / PAGE_SIZE;

/** What an answer says when the walk stopped short: `what` are the records, `narrow` how to ask for fewer. */
export function partialNote(what: string, narrow: string): string {
  return (
    `Not every ${what} was searched: a search here stops after ${MAX_SCANNED.toLocaleString("en-US")} ` +
    `records or ${MAX_PAGES} pages of the platform's answers. Narrow it with ${narrow}.`
  );
}

export interface ListSource<T> {
  /** The list's key in the answer, e.g. "entries". */
  key: string;
  path: ApiPath;
  itemSchema: z.ZodType<T>;
  query: Record<string, string | undefined>;
}

export interface FilteredPage<T> extends Counted<T> {
  /** False when the walk stopped at MAX_SCANNED before the end: more may match. */
  complete: boolean;
}

export async function filteredList<T>(
  client: LabdataClient,
  sources: ListSource<T>[],
  keep: ((item: T) => boolean) | undefined,
  offset: number,
  limit: number,
  ctx: LabdataCall,
): Promise<FilteredPage<T>> {
  const [only] = sources;
  if (sources.length === 1 && only && !keep) {
    const counted = await client.list(only.key, only.path, only.itemSchema, only.query, offset, limit, ctx);
    return { ...counted, complete: true };
  }
  const matches: T[] = [];
  let scanned = 0;
  let pages = 0;
  let complete = true;
  walk: for (const source of sources) {
    const schema = listSchema(source.key, source.itemSchema) as z.ZodType<Record<string, unknown>>;
    let cursor: string | undefined;
    do {
      if (scanned >= MAX_SCANNED || pages >= MAX_PAGES) {
        complete = false;
        break walk;
      }
      // Progress once the walk goes past its first page, the point where a wait can begin to show.
      if (pages > 0) {
        void ctx.progress?.(
          Math.min(scanned / MAX_SCANNED, 0.99),
          `Read ${scanned} records, ${matches.length} match`,
        );
      }
      pages += 1;
      const { body } = await client.send(
        { path: source.path, query: { ...source.query, pageSize: PAGE_SIZE, nextToken: cursor }, schema },
        ctx,
      );
      const items = (body[source.key] as T[] | undefined) ?? [];
      scanned += items.length;
      for (const item of items) if (!keep || keep(item)) matches.push(item);
      const next = body.nextToken as string | undefined;
      // A remote that hands back the cursor it was given would loop: that is the end.
      cursor = next && items.length > 0 && next !== cursor ? next : undefined;
    } while (cursor);
  }
  // Walked to the end, the count is exact; stopped short, it is what matched so far, at least.
  return { items: matches.slice(offset, offset + limit), total: matches.length, exact: complete, complete };
}
