// The MCP sessions of 2025-11-25 clients over HTTP, held by this process: one McpServer and SDK
// transport per session, bound to the person who opened it in team mode, capped (the least recently
// used idle one gives way) and closed when idle. A person holds at most a share of the cap: at it,
// their own least recently used idle session gives way, never another's.
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import type { McpServer } from "@modelcontextprotocol/server";
import type { Person } from "../caller.js";
import type { ServerFactory } from "../server/factory.js";

/**
 * The person of a 2025-11-25 session: who opened it, for the session's life, with the newest access
 * token they sent on it (for a remote that trusts the same identity provider).
 */
class SessionPerson implements Person {
  readonly subject: string;
  readonly email?: string;
  #accessToken: string;

  constructor(person: Person) {
    this.subject = person.subject;
    if (person.email !== undefined) this.email = person.email;
    this.#accessToken = person.accessToken;
  }

  get accessToken(): string {
    return this.#accessToken;
  }

  renew(accessToken: string): void {
    this.#accessToken = accessToken;
  }
}

export interface Session {
  transport: NodeStreamableHTTPServerTransport;
  server: McpServer;
  /** Team mode: the person who opened it; only their tokens may use it. */
  person?: SessionPerson;
  /** When the session's last exchange began or ended. */
  lastSeen: number;
  /** Exchanges still open: calls in flight (answered on their own stream) and GET event streams. */
  openExchanges: number;
}

/** The part of MCP_MAX_SESSIONS one person may hold (at least one session). */
const PERSON_SHARE = 1 / 4;

/** Why a session was not opened: every session busy, or the person's own share busy. */
export type NoRoom = "full" | "share";

export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  /** Initializations under way, not yet in `sessions`: they count against the cap too. */
  private starting = 0;
  /** The same, by person (subject). */
  private readonly startingBy = new Map<string, number>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly factory: ServerFactory,
    /** Idle for this long with no open exchange: closed (clients that vanish without DELETE). */
    private readonly idleMs: number,
    readonly maxSessions: number,
  ) {}

  get(id: string | string[] | undefined): Session | undefined {
    return typeof id === "string" ? this.sessions.get(id) : undefined;
  }

  /**
   * A request on `session` by `person` (team mode): refused (false) when the session is another
   * person's; else the session's person keeps their newest token, and the exchange holds it open.
   */
  enter(session: Session, person: Person | undefined, res: ServerResponse): boolean {
    if (session.person && session.person.subject !== person?.subject) return false;
    if (session.person && person) session.person.renew(person.accessToken);
    this.holdOpen(session, res);
    return true;
  }

  /** The most sessions one person may hold at once. */
  get personShare(): number {
    return Math.max(1, Math.floor(this.maxSessions * PERSON_SHARE));
  }

  /**
   * Opens a session for an initialize request and answers it; why not (nothing answered) when all
   * sessions, or all of the person's share, are busy.
   */
  async open(
    person: Person | undefined,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ): Promise<NoRoom | undefined> {
    const noRoom = this.makeRoom(person?.subject);
    if (noRoom) return noRoom;
    this.starting++;
    if (person) this.startingBy.set(person.subject, (this.startingBy.get(person.subject) ?? 0) + 1);
    try {
      const sessionPerson = person ? new SessionPerson(person) : undefined;
      const server = this.factory({
        caller: `session:${randomUUID()}`,
        isolated: true,
        person: sessionPerson,
      });
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          this.sessions.set(id, {
            transport,
            server,
            person: sessionPerson,
            lastSeen: Date.now(),
            openExchanges: 0,
          });
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) this.sessions.delete(transport.sessionId);
        void server.close();
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
      return undefined;
    } finally {
      this.starting--;
      if (person) {
        const left = (this.startingBy.get(person.subject) ?? 1) - 1;
        if (left > 0) this.startingBy.set(person.subject, left);
        else this.startingBy.delete(person.subject);
      }
    }
  }

  /** Closes idle sessions now and then, until `close`. */
  sweep(): void {
    this.sweeper = setInterval(
      () => {
        const now = Date.now();
        for (const session of this.sessions.values()) {
          if (session.openExchanges === 0 && now - session.lastSeen > this.idleMs) {
            void session.transport.close();
          }
        }
      },
      Math.min(this.idleMs, 60_000),
    );
    this.sweeper.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.allSettled([...this.sessions.values()].map(({ transport }) => transport.close()));
    this.sessions.clear();
  }

  /** A session is busy while any of its exchanges is open: a call waiting on the remote, a GET stream. */
  private holdOpen(session: Session, res: ServerResponse): void {
    session.openExchanges++;
    session.lastSeen = Date.now();
    res.once("close", () => {
      session.openExchanges--;
      session.lastSeen = Date.now();
    });
  }

  /**
   * Room for a new session of `subject`: at their share, their own least recently used idle session
   * gives way; at the cap, the least recently used idle one. Why not, when none is idle.
   */
  private makeRoom(subject: string | undefined): NoRoom | undefined {
    if (subject !== undefined) {
      const theirs = [...this.sessions].filter(([, session]) => session.person?.subject === subject);
      if (theirs.length + (this.startingBy.get(subject) ?? 0) >= this.personShare) {
        if (!this.closeLeastRecent(theirs)) return "share";
        return undefined;
      }
    }
    if (this.sessions.size + this.starting < this.maxSessions) return undefined;
    return this.closeLeastRecent([...this.sessions]) ? undefined : "full";
  }

  /** Closes the least recently used idle session of `entries`; false when none is idle. */
  private closeLeastRecent(entries: Array<[string, Session]>): boolean {
    let oldest: [string, Session] | undefined;
    for (const entry of entries) {
      if (entry[1].openExchanges === 0 && (!oldest || entry[1].lastSeen < oldest[1].lastSeen)) oldest = entry;
    }
    if (!oldest) return false;
    this.sessions.delete(oldest[0]);
    void oldest[1].transport.close();
    return true;
  }
}
