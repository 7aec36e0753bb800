// The document's creation filters of the registry and inventory lists: `createdAt` as a range
// ("> 2026-05-01 AND < 2026-06-01", RFC 3339 dates or times, UTC by default) and `creatorIds`, a comma
// list of user ids. Both bind a nextToken, so a cursor of one filter is not read under another.
import { commaList, rangeParameter } from "../notebook/query.js";

export interface CreatedFilter {
  /** Whether a record passes both filters (true when neither was given). */
  passes(item: { createdAt: number; creatorId: string }): boolean;
  /** The raw values, for the list's cursor binding. */
  binding: Array<string | null>;
}

export function createdFilter(params: URLSearchParams): CreatedFilter {
  const created = rangeParameter(params, "createdAt");
  const creators = commaList(params, "creatorIds");
  return {
    passes: (item) =>
      (created === undefined || created(item.createdAt)) &&
      (creators === undefined || creators.has(item.creatorId)),
    binding: [params.get("createdAt"), params.get("creatorIds")],
  };
}
