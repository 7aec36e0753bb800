// Offset pagination (what tools take) over a cursor API (what many remotes give). A bounded cache of
// the cursors seen per query lets an agent read page after page at one remote page per tool page,
// and a jump to a far offset walks from the nearest cursor it knows, in the largest pages allowed. The
// cache is in the shared state, so paging costs the same whichever replica answers each page.
// A remembered cursor may outlive its list (items archived since): an empty page read from one says
// nothing of where the list ends now, so the reading starts again from the start, once, with fresh
// cursors, rather than take that position for the list's exact length.
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
    return (
      (await this.read(queryKey, offset, limit, fetchPage, onWalk, true)) ??
      ((await this.read(queryKey, offset, limit, fetchPage, onWalk, false)) as PageRead<T>)
    );
  }

  /**
   * One reading, from the nearest remembered cursor when `fromMemory`, else from the start; undefined
   * when a remembered cursor led to an empty page (the list may have shrunk since it was remembered).
   */
  private async read<T>(
    queryKey: string,
    offset: number,
    limit: number,
    fetchPage: FetchPage<T>,
    onWalk: ((done: number, target: number) => void) | undefined,
    fromMemory: boolean,
  ): Promise<PageRead<T> | undefined> {
    const { cursors } = this.options;
    const known = fromMemory && offset > 0 ? await cursors.nearest(queryKey, offset) : undefined;
    let position = known?.position ?? 0;
    let cursor = known?.cursor;
    /** A remembered cursor no page of this reading has confirmed yet. */
    let unconfirmed = known !== undefined;
    let total: number | undefined;
    // Walk to the offset in the largest pages allowed, remembering every cursor on the way.
    while (position < offset) {
      const step = Math.min(this.options.maxPageSize, offset - position);
      onWalk?.(position, offset);
      const page = await fetchPage(cursor, step);
      if (page.items.length === 0 && unconfirmed) return undefined;
      unconfirmed = false;
      total = page.total;
      // The end, or a remote that serves no more: the list holds what was walked.
      if (!page.nextCursor || page.items.length === 0)
        return { items: [], total, end: position + page.items.length };
      position += page.items.length;
      cursor = page.nextCursor;
      await cursors.remember(queryKey, position, cursor);
    }
    const page = await fetchPage(cursor, Math.min(limit, this.options.maxPageSize));
    if (page.items.length === 0 && unconfirmed) return undefined;
    const reached = position + page.items.length;
    if (page.nextCursor && page.items.length > 0) {
      await cursors.remember(queryKey, reached, page.nextCursor);
      return { items: page.items, total: page.total ?? total ?? 0 };
    }
    return { items: page.items, total: page.total ?? total ?? 0, end: reached };
  }
}

interface PageRead<T> {
  items: T[];
  total: number;
  end?: number;
}
