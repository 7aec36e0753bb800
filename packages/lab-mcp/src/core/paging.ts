// The pagination envelope of the conventions: {total, count, offset, <items>, has_more, next_offset}.

export type Page<K extends string, T> = {
  total: number;
  count: number;
  offset: number;
  has_more: boolean;
  next_offset: number | null;
} & { [key in K]: T[] };

/**
 * Builds the envelope with the items under their resource name (e.g. "users"). Keys are inserted in
 * the order the conventions list them, so the JSON output reads total, count, offset, items, ...
 */
export function pageOf<K extends string, T>(
  itemsKey: K,
  items: T[],
  total: number,
  offset: number,
): Page<K, T> {
  const hasMore = total > offset + items.length;
  return {
    total,
    count: items.length,
    offset,
    [itemsKey]: items,
    has_more: hasMore,
    next_offset: hasMore ? offset + items.length : null,
  } as Page<K, T>;
}
