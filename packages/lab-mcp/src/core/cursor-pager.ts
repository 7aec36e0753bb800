// Offset pagination (what tools take) over a cursor API (what many remotes give). A bounded cache of
// the cursors seen per query lets an agent read page after page at one remote page per tool page,
// and a jump to a far offset walks from the nearest cursor it knows, in the largest pages allowed. The
// cache is in the shared state, so paging costs the same whichever replica answers each page.
import type { CursorStore } from "./state/shared-state.js";

export interface CursorPage<T> {
  items: T[];
  /** Cursor of the position right after these items; absent at the end. */
  nextCursor?: string;
  /** Total matches, when the remote says. */
  total: number;
}

/** Fetches `pageSize` items from a position (undefined: the start). */
export type FetchPage<T> = (cursor: string | undefined, pageSize: number) => Promise<CursorPage<T>>;

export interface CursorPagerOptions {
  /** Largest page the remote serves. */
  maxPageSize: number;
  /** Where the cursors seen are kept: this process's memory, or the fleet's Redis. */
  cursors: CursorStore;
}

export class CursorPager {
  constructor(private readonly options: CursorPagerOptions) {}

  /**
   * The items at [offset, offset + limit) of the query named by `queryKey` (which must identify the
   * credential, the filters and the sort), and the total. `end` is the list's length when the remote
   * showed its end (no cursor after the last page read). `onWalk` hears progress while a far offset
   * is reached by walking.
   */
  async page<T>(
    queryKey: string,
    offset: number,
    limit: number,
    fetchPage: FetchPage<T>,
    onWalk?: (done: number, target: number) => void,
  ): Promise<{ items: T[]; total: number; end?: number }> {
    const { cursors } = this.options;
    const known = offset > 0 ? await cursors.nearest(queryKey, offset) : undefined;
    let position = known?.position ?? 0;
    let cursor = known?.cursor;
    let total: number | undefined;
    // Walk to the offset in the largest pages allowed, remembering every cursor on the way.
    while (position < offset) {
      const step = Math.min(this.options.maxPageSize, offset - position);
      onWalk?.(position, offset);
      const page = await fetchPage(cursor, step);
      total = page.total;
      // The end, or a remote that serves no more: the list holds what was walked.
      if (!page.nextCursor || page.items.length === 0)
        return { items: [], total, end: position + page.items.length };
      position += page.items.length;
      cursor = page.nextCursor;
      await cursors.remember(queryKey, position, cursor);
    }
    const page = await fetchPage(cursor, Math.min(limit, this.options.maxPageSize));
    const reached = position + page.items.length;
    if (page.nextCursor && page.items.length > 0) {
      await cursors.remember(queryKey, reached, page.nextCursor);
      return { items: page.items, total: page.total ?? total ?? 0 };
    }
    return { items: page.items, total: page.total ?? total ?? 0, end: reached };
  }
}
