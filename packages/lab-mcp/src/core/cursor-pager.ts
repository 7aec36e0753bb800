// Offset pagination (what tools take) over a cursor API (what many remotes give). A bounded cache of
// the cursors seen per query lets an agent read page after page at one remote page per tool page,
// and a jump to a far offset walks from the nearest cursor it knows, in the largest pages allowed.

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
  /** Queries whose cursors are kept (least recently used are dropped). */
  maxQueries?: number;
  /** Cursors kept per query. */
  maxCursorsPerQuery?: number;
}

export class CursorPager {
  private readonly queries = new Map<string, Map<number, string>>();
  private readonly maxQueries: number;
  private readonly maxCursorsPerQuery: number;

  constructor(private readonly options: CursorPagerOptions) {
    this.maxQueries = options.maxQueries ?? 500;
    this.maxCursorsPerQuery = options.maxCursorsPerQuery ?? 200;
  }

  /**
   * The items at [offset, offset + limit) of the query named by `queryKey` (which must identify the
   * credential, the filters and the sort), and the total. `onWalk` hears progress while a far offset
   * is reached by walking.
   */
  async page<T>(
    queryKey: string,
    offset: number,
    limit: number,
    fetchPage: FetchPage<T>,
    onWalk?: (done: number, target: number) => void,
  ): Promise<{ items: T[]; total: number }> {
    const cursors = this.cursorsOf(queryKey);
    let position = 0;
    let cursor: string | undefined;
    for (const [known, knownCursor] of cursors) {
      if (known <= offset && known > position) {
        position = known;
        cursor = knownCursor;
      }
    }
    let total: number | undefined;
    // Walk to the offset in the largest pages allowed, remembering every cursor on the way.
    while (position < offset) {
      const step = Math.min(this.options.maxPageSize, offset - position);
      onWalk?.(position, offset);
      const page = await fetchPage(cursor, step);
      total = page.total;
      if (!page.nextCursor || page.items.length < step) return { items: [], total };
      position += page.items.length;
      cursor = page.nextCursor;
      this.remember(queryKey, position, cursor);
    }
    const page = await fetchPage(cursor, Math.min(limit, this.options.maxPageSize));
    if (page.nextCursor) this.remember(queryKey, position + page.items.length, page.nextCursor);
    return { items: page.items, total: page.total ?? total ?? 0 };
  }

  private cursorsOf(queryKey: string): Map<number, string> {
    const cursors = this.queries.get(queryKey) ?? new Map<number, string>();
    // Re-inserting marks the query as most recently used.
    this.queries.delete(queryKey);
    this.queries.set(queryKey, cursors);
    if (this.queries.size > this.maxQueries) this.queries.delete(this.queries.keys().next().value as string);
    return cursors;
  }

  private remember(queryKey: string, position: number, cursor: string): void {
    const cursors = this.cursorsOf(queryKey);
    cursors.set(position, cursor);
    if (cursors.size > this.maxCursorsPerQuery) cursors.delete(cursors.keys().next().value as number);
  }
}
