// The pagination envelope of the conventions: {total, count, offset, <items>, has_more, next_offset}.
import { z } from "zod";

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

/**
 * The output schema of a paged tool: the envelope with `items` under `itemsKey`, as pageOf builds it.
 */
export function pageShape<K extends string, Item extends z.ZodType>(itemsKey: K, item: Item) {
  return {
    total: z.number().int(),
    count: z.number().int(),
    offset: z.number().int(),
    [itemsKey]: z.array(item),
    has_more: z.boolean(),
    next_offset: z.number().int().nullable(),
  } as { [key in K]: z.ZodArray<Item> } & {
    total: z.ZodNumber;
    count: z.ZodNumber;
    offset: z.ZodNumber;
    has_more: z.ZodBoolean;
    next_offset: z.ZodNullable<z.ZodNumber>;
  };
}
