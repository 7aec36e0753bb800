// One page of a list answer in any of its eras (fact sheet 3.2 and 3.4): items under `items`; the
// total under `pagination.total_results`, or at the top level as `total_results` or `total`, or
// nowhere; `current_page` and `next_page`/`prev_page` (URL strings) only hints about page numbering.
import { z } from "zod";
import { protocolSummarySchema } from "./protocols.js";
import { integer, isRecord, list, text } from "./values.js";

/** The page_id in a prev_page / next_page URL. */
const pageIdIn = (link: unknown) => {
  const url = text.parse(link);
  if (!url) return undefined;
  try {
    return new URL(url, "https://example.invalid/").searchParams.get("page_id");
  } catch {
    return undefined;
  }
};

/** The items of a list page, whatever they are; read as `item`. */
export const listPageOf = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) => {
      if (!isRecord(value)) return value;
      const pagination = isRecord(value.pagination) ? value.pagination : {};
      const next = pagination.next_page ?? value.next_page;
      return {
        items: value.items,
        total: pagination.total_results ?? value.total_results ?? value.total ?? pagination.total,
        totalPages: pagination.total_pages ?? value.total_pages,
        currentPage: pagination.current_page ?? value.current_page,
        previousPageId: pageIdIn(pagination.prev_page ?? value.prev_page),
        hasNextPage:
          next === undefined
            ? undefined
            : text.parse(next) !== undefined || integer().parse(next) !== undefined,
      };
    },
    z.object({
      items: list(item),
      total: integer(0),
      totalPages: integer(0),
      currentPage: integer(0),
      /** The page_id in prev_page / next_page, when they are URLs that carry one. */
      previousPageId: integer(0),
      hasNextPage: z.boolean().optional(),
    }),
  );

export const listPageSchema = listPageOf(protocolSummarySchema);
export type ListPage = z.infer<typeof listPageSchema>;
