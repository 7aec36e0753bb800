// Who the caller of an HTTP request is, decided once per request by the transport and handed to the
// server it builds (see docs/architecture.md, "Who is the caller"). Over stdio the caller is the user
// who started the server (stdio.ts); a 2025 session is its own caller (sessions.ts).
import { callerOf } from "../auth/resource-server.js";
import type { ClientSession, Person } from "../caller.js";

/** The callers of stateless (2026-07-28) requests to one HTTP server. */
export interface StatelessCallers {
  /** A person signed in through the authorization server (team mode): the same on every replica. */
  person(person: Person): ClientSession;
  /**
   * Nobody by name: with MCP_HTTP_TOKEN its one holder, whose asks and supplied credentials last across
   * requests (one object per server, as services key what a caller supplied by it); without a token
   * nobody is known, and what a request supplies serves that request alone.
   */
  unnamed(): ClientSession;
}

export function statelessCallers(tokenRequired: boolean): StatelessCallers {
  const tokenHolder: ClientSession = { caller: "token-holder", isolated: true };
  return {
    person: (person) => ({ caller: callerOf(person), isolated: true, person }),
    unnamed: () =>
      tokenRequired ? tokenHolder : { caller: "anonymous", isolated: true, thisCallOnly: true },
  };
}
