// An HTTP route: a page of a service (or of core) on the HTTP transport beside the MCP endpoint. The
// transport serves routes; services and the pages room declare them.
import type { IncomingMessage, ServerResponse } from "node:http";

/** A page of a service (or of core) on the HTTP transport, answered without the MCP bearer token. */
export interface HttpRoute {
  /** Exact path, e.g. "/oauth/protocols/callback"; with `prefix`, every path under it. */
  path: string;
  prefix?: boolean;
  /** Default GET and HEAD. */
  methods?: string[];
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
}
