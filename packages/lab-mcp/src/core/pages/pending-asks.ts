// Pages opened for the user (a secret page, a sign-in listener) that outlive one round of a
// multi-round-trip request. The first round opens the page and answers "input required" with its URL;
// the client shows it, then retries with a signed requestState naming the ask, and the retry waits
// here for what the user did on the page. Pages are local to the process that opened them. Each owner
// (a signed-in person across all their sessions, else the caller) has a quota well under the server's:
// their own oldest ask gives way to their new one, never another owner's, so no one person's abandoned
// sessions can fill the server's cap for everyone.
import { randomUUID } from "node:crypto";
import { ActionableError } from "../errors.js";

/** What a page opened for the user hands back: where it is, what it settles with, how to close it. */
export interface OpenedPage<T> {
  url: string;
  until: Promise<T>;
  close(): void;
  /**
   * What another process needs to wait for this same page (a page on the public URL whose answer goes
   * through the shared state); absent for a page only this process can answer.
   */
  resumeToken?: string;
}

interface PendingAsk {
  /** Who opened it: only the same caller may wait for it. */
  caller: string;
  /** Whose quota it counts against: the person (subject) in team mode, else the caller. */
  owner: string;
  page: OpenedPage<unknown>;
  /** When the user's time is up (epoch ms). */
  deadline: number;
  timer: NodeJS.Timeout;
}

/** The most asks one owner (a person, else a caller) has open at once: their own oldest gives way. */
export const MAX_PENDING_PER_CALLER = 16;
/** The most asks open at once, all owners together: each may hold a listening socket. */
export const MAX_PENDING = 1024;

export class PendingAsks {
  private readonly asks = new Map<string, PendingAsk>();

  /**
   * Keeps an opened page for `timeoutMs`, then closes it; returns the id the requestState names.
   * `owner` is whose quota it counts against (the person, whichever session asks), by default the caller.
   */
  add(caller: string, page: OpenedPage<unknown>, timeoutMs: number, owner = caller): string {
    const mine = [...this.asks].filter(([, ask]) => ask.owner === owner);
    const oldestOfMine = mine[0]?.[0];
    if (
      oldestOfMine !== undefined &&
      (mine.length >= MAX_PENDING_PER_CALLER || this.asks.size >= MAX_PENDING)
    ) {
      this.finish(oldestOfMine);
    } else if (this.asks.size >= MAX_PENDING) {
      page.close();
      throw new ActionableError(
        `Too many pages are open for people on this server (${MAX_PENDING}); try again once some of them are done.`,
      );
    }
    const id = randomUUID();
    // A local page may settle before anyone waits for it; a resumable one is only waited for on demand.
    if (!page.resumeToken) page.until.catch(() => undefined);
    const timer = setTimeout(() => this.finish(id), timeoutMs);
    timer.unref();
    this.asks.set(id, { caller, owner, page, deadline: Date.now() + timeoutMs, timer });
    return id;
  }

  /** The ask `id` if `caller` opened it and it is still open. */
  get<T>(id: string, caller: string): { page: OpenedPage<T>; deadline: number } | undefined {
    const ask = this.asks.get(id);
    if (!ask || ask.caller !== caller) return undefined;
    return { page: ask.page as OpenedPage<T>, deadline: ask.deadline };
  }

  /** Closes the page and forgets the ask. Safe to call more than once. */
  finish(id: string): void {
    const ask = this.asks.get(id);
    if (!ask) return;
    this.asks.delete(id);
    clearTimeout(ask.timer);
    ask.page.close();
  }
}
