// What a call brings a service's client and credential source, named once for both services: the
// request's signal and waits, the client session it is made for (and so the person), where to log.
import type { ClientSession, SessionScoped } from "../caller.js";
import type { ToolContext } from "../context.js";
import type { RequestScope } from "../http/remote-client.js";

/** Any call: a tool's, or one made without a client session (the CLI, a resource read). */
export type CallScope = RequestScope &
  SessionScoped & {
    log?: ToolContext["log"];
    /** Where progress of a long walk goes (e.g. a list read page by page). */
    progress?: ToolContext["progress"];
  };

/** A call made for a client session, which may ask its user for a secret: a tool's context is one. */
export type SessionCall = CallScope & {
  readonly clientSession: ClientSession;
  askForSecret: ToolContext["askForSecret"];
};
