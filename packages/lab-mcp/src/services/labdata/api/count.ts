// How many a list holds, never more than the platform said: its Result-Count where it sent one, the
// length where the list was read to its end, and otherwise only "at least" what was seen (one more
// while the platform offers a next page, so has_more stays true). A page past the end never makes
// the offset a total.

export interface Counted<T> {
  items: T[];
  total: number;
  /** False when `total` is a lower bound: the platform gave no count and the end was not reached. */
  exact: boolean;
}

/**
 * The count of a page of `items` at `offset`: `reported` is the platform's count (Result-Count),
 * `end` the list's length when the reading reached its end.
 */
export function countOf<T>(
  items: T[],
  offset: number,
  reported: number | undefined,
  end: number | undefined,
): Counted<T> {
  const seen = offset + items.length;
  if (reported !== undefined) {
    // A count below what was served is not believed; what was served is at least there.
    if (items.length > 0 && reported < seen) return { items, total: seen, exact: false };
    return { items, total: reported, exact: true };
  }
  if (end !== undefined) return { items, total: end, exact: true };
  // Nothing here and no end seen (a remote that stopped answering pages): no more is promised.
  if (items.length === 0) return { items, total: seen, exact: false };
  return { items, total: seen + 1, exact: false };
}
