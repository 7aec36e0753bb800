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

/** The envelope fields a markdown answer's structured copy leaves out at these values: they say nothing. */
const SILENT_AT = new Map<string, unknown>([
  ["offset", 0],
  ["has_more", false],
  ["next_offset", null],
]);

/**
 * The page as a markdown answer's structured copy: without offset 0, has_more false and next_offset null
 * (absent means first page, last page). On a short list they outweighed the text (the goal: the wire
 * at most 3x the text, test/conventions/wire-ratio.test.ts); the json answer keeps the whole envelope, as the conventions require.
 */
export function briefPage<P extends object>(page: P): P {
  const said = ([key, value]: [string, unknown]) => !SILENT_AT.has(key) || SILENT_AT.get(key) !== value;
  return Object.fromEntries(Object.entries(page).filter(said)) as P;
}

/**
 * The output schema of a paged tool: the envelope with `items` under `itemsKey`, as pageOf builds it;
 * offset, has_more and next_offset optional, as briefPage leaves them out.
 */
export function pageShape<K extends string, Item extends z.ZodType>(itemsKey: K, item: Item) {
  return {
    total: z.number().int(),
    count: z.number().int(),
    offset: z.number().int().optional(),
    [itemsKey]: z.array(item),
    has_more: z.boolean().optional(),
    next_offset: z.number().int().nullable().optional(),
  } as { [key in K]: z.ZodArray<Item> } & {
    total: z.ZodNumber;
    count: z.ZodNumber;
    offset: z.ZodOptional<z.ZodNumber>;
    has_more: z.ZodOptional<z.ZodBoolean>;
    next_offset: z.ZodOptional<z.ZodNullable<z.ZodNumber>>;
  };
}
