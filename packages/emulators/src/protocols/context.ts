// Everything a request handler of the protocols emulator may read or change, passed as one object.
import type { Clock } from "../common/clock.js";
import type { BrowserSessions } from "./browser-sessions.js";
import type { Dialect } from "./dialect.js";
import type { FormTickets } from "./form-tickets.js";
import type { PdfCache } from "./pdf-render.js";
import type { RateLimits } from "./rate-limits.js";
import type { ProtocolsSettings } from "./settings.js";
import type { ProtocolsStore } from "./store.js";
import type { TokenStore } from "./tokens.js";

export interface ProtocolsContext {
  store: ProtocolsStore;
  tokens: TokenStore;
  sessions: BrowserSessions;
  tickets: FormTickets;
  settings: ProtocolsSettings;
  /** How answers are worded (dialect.ts); changed by the admin API, never the rules. */
  dialect: Dialect;
  limits: RateLimits;
  pdfs: PdfCache;
  clock: Clock;
  /** Where the emulator listens, e.g. "https://127.0.0.1:PORT"; set once the port is known. */
  origin: string;
}
