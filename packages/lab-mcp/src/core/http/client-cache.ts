// One remote client per credential, so that each credential has its own rate limiter and tokens, kept
// for the most recently used credentials only: a server shared over HTTP sees a new credential per
// session key typed and per sign-in, and must not keep them all for the life of the process.

/** Far above MCP_MAX_SESSIONS (100): a credential in use is never the least recently used one. */
export const MAX_CACHED_CREDENTIALS = 1000;

export class ClientCache<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly maxEntries = MAX_CACHED_CREDENTIALS) {}

  /** The value for `key`, made by `create` when there is none; the least recently used goes past the bound. */
  obtain(key: string, create: () => V): V {
    const known = this.entries.get(key);
    if (known !== undefined) {
      // A Map keeps insertion order: moving the key to the end makes the first key the least recently used.
      this.entries.delete(key);
      this.entries.set(key, known);
      return known;
    }
    const made = create();
    this.set(key, made);
    return made;
  }

  peek(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
