// The caller: who a tool call is made for. The transport decides it (stdio's one user, the holder of
// MCP_HTTP_TOKEN, an anonymous request, a 2025 session, a signed-in person); services key what a caller
// supplies by it, and nothing else decides whose a credential is.

/**
 * Who a call is made for, as far as client-supplied credentials go: today the MCP session (one object
 * per session over HTTP, the only one over stdio). Services key what a client supplied (a key typed on
 * a page, a sign-in) by this object, in WeakMaps, so it lives as long as the identity does. Another
 * identity (a signed-in subject over stateless HTTP) only has to hand every call of the same subject
 * the same object.
 */
export interface ClientSession {
  /**
   * Who the caller is, for binding what outlives one request (a page opened for them, its signed
   * requestState) to them alone: the MCP session over HTTP (2025-11-25), the bearer token's identity
   * over stateless HTTP (2026-07-28), the one client of stdio.
   */
  readonly caller: string;
  /**
   * True over HTTP, where one process serves many clients: a credential a client supplies belongs to
   * its session alone, in memory, never stored, never used for or seen by another client. Over stdio
   * the one client is the user who started the server, and what it supplies may be kept for them.
   */
  readonly isolated: boolean;
  /**
   * True when nothing identifies the caller beyond this one request (a 2026-07-28 request over HTTP
   * without MCP_HTTP_TOKEN): what it supplies serves this call alone.
   */
  readonly thisCallOnly?: boolean;
  /**
   * The person, when the server is an OAuth resource server (MCP_AUTH_ISSUER): verified from their
   * access token on every request, the same on every replica. What they supply (an API key, a
   * sign-in) is bound to it in the shared state, for them alone.
   */
  readonly person?: Person;
}

/** A person signed in to the MCP server through its authorization server. */
export interface Person {
  /** `<issuer> <sub>`: stable, unique across issuers. Never shown; logged only as a keyed hash. */
  readonly subject: string;
  /** What the token says of them, for messages to them (e.g. their email); may be absent. */
  readonly email?: string;
  /** Their access token as they sent it, for a remote that trusts the same identity provider. */
  readonly accessToken: string;
}

/** What a service needs of a caller to keep client-supplied credentials apart. */
export interface SessionScoped {
  readonly clientSession?: ClientSession;
}

/**
 * Whose turn a call takes in the line of a shared credential's rate budget: its person's, else its
 * client session's (stdio's one user, a 2025 session, the token holder); none for a call without one
 * (the CLI, `check`). Calls of one share queue behind each other; shares take turns.
 */
export function fairShareOf(session: ClientSession | undefined): string {
  if (!session) return "";
  return session.person ? `person ${session.person.subject}` : session.caller;
}
