// A keyword search in each of the keyword's spellings (α-synuclein and alpha-synuclein: the repository
// may not fold Greek letters), merged: the protocols of each spelling's list in turn, by their rank in
// it, each once. Each list is read from its start, so a merged page is the same whichever page came
// before; that walk stops MERGED_DEPTH protocols into each list.
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";
import type { ProtocolSummary } from "../records/protocols.js";
import { type ListQuery, listRange, MAX_PAGE_SIZE } from "./protocol-lists.js";

/** How far into each spelling's list the merged list reaches. */
export const MERGED_DEPTH = 300;

export interface SpellingCount {
  keyword: string;
  /** The repository's total for this spelling; undefined when it gave none. */
  total: number | undefined;
}

export interface SpellingsResult {
  items: ProtocolSummary[];
  total: number;
  /** Whether `total` is a count rather than a floor: every list was read to its end. */
  exact: boolean;
  /** What the repository said for each spelling. */
  counts: SpellingCount[];
  /** Whether the merged list stopped at MERGED_DEPTH of some spelling's list. */
  deep: boolean;
}

interface ReadList {
  items: ProtocolSummary[];
  total: number | undefined;
  ended: boolean;
}

/** The first `wanted` protocols of one spelling's list, in pages of up to 100. */
async function readList(
  client: ProtocolsClient,
  query: ListQuery,
  wanted: number,
  ctx: ProtocolsCall,
): Promise<ReadList> {
  const items: ProtocolSummary[] = [];
  let total: number | undefined;
  while (items.length < wanted) {
    const size = Math.min(MAX_PAGE_SIZE, wanted - items.length);
    const range = await listRange(client, query, items.length, size, ctx);
    if (items.length === 0 && range.exact) total = range.total;
    items.push(...range.items);
    if (range.items.length < size || (total !== undefined && items.length >= total)) {
      return { items, total, ended: true };
    }
  }
  return { items, total, ended: total !== undefined && items.length >= total };
}

/** Protocols [offset, offset + limit) of the merged list of `keywords` (two or more spellings). */
export async function searchSpellings(
  client: ProtocolsClient,
  query: Omit<ListQuery, "key">,
  keywords: string[],
  offset: number,
  limit: number,
  ctx: ProtocolsCall,
): Promise<SpellingsResult> {
  const wanted = Math.min(offset + limit, MERGED_DEPTH);
  const lists: ReadList[] = [];
  for (const key of keywords) lists.push(await readList(client, { ...query, key }, wanted, ctx));
  const merged: ProtocolSummary[] = [];
  const seen = new Set<number>();
  const longest = Math.max(...lists.map((list) => list.items.length));
  for (let rank = 0; rank < longest; rank++) {
    for (const list of lists) {
      const item = list.items[rank];
      if (item && !seen.has(item.id)) {
        seen.add(item.id);
        merged.push(item);
      }
    }
  }
  const ended = lists.every((list) => list.ended);
  const deep = !ended && wanted >= MERGED_DEPTH;
  return {
    items: merged.slice(offset, offset + limit),
    // Not ended: some list was read to `wanted`, so more follow unless the walk stopped at its depth.
    total: ended || deep ? merged.length : merged.length + 1,
    exact: ended,
    counts: keywords.map((keyword, i) => ({ keyword, total: lists[i]?.total })),
    deep,
  };
}
