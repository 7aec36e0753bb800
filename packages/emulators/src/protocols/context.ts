// Everything a request handler of the protocols emulator may read or change, passed as one object.
import type { IncomingMessage } from "node:http";
import type { Clock } from "../common/clock.js";
import type { FormTickets } from "../common/oauth/form-tickets.js";
import type { PdfCache } from "./api/pdf-render.js";
import type { RateLimits } from "./api/rate-limits.js";
import type { Dialect } from "./dialect.js";
import type { AuthorizationRequest } from "./oauth/authorization-request.js";
import type { BrowserSessions } from "./oauth/browser-sessions.js";
import type { IssuedTokens } from "./oauth/issued-tokens.js";
import type { ProtocolsSettings } from "./settings.js";
import type { ProtocolsStore } from "./store.js";

export interface ProtocolsContext {
  store: ProtocolsStore;
  tokens: IssuedTokens;
  sessions: BrowserSessions;
  tickets: FormTickets<AuthorizationRequest>;
  settings: ProtocolsSettings;
  /** How answers are worded (dialect.ts); changed by the admin API, never the rules. */
  dialect: Dialect;
  limits: RateLimits;
  pdfs: PdfCache;
  clock: Clock;
  /** Where the emulator listens, e.g. "https://127.0.0.1:PORT"; set once the port is known. */
  origin: string;
}

/** What a route of the repository (OAuth endpoints, PDF view) is given. */
export interface RepositoryRequest {
  req: IncomingMessage;
  /** The path and query; its origin is a placeholder. */
  url: URL;
  ctx: ProtocolsContext;
}
