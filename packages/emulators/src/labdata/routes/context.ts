// What an API route handler is given: the request, its tenant and authenticated principal, and a
// slot to name the record it touched for the audit log.
import type { IncomingMessage } from "node:http";
import type { Clock } from "../../common/clock.js";
import type { Route } from "../../common/routes.js";
import type { PageTokens } from "../api/page-tokens.js";
import type { Principal } from "../auth/authenticate.js";
import type { TenantState } from "../state/emulator-state.js";
import type { IdFactory } from "../state/ids.js";
import type { Warehouses } from "../warehouse/warehouses.js";

export interface RouteContext {
  req: IncomingMessage;
  url: URL;
  tenant: TenantState;
  principal: Principal;
  clock: Clock;
  ids: IdFactory;
  pageTokens: PageTokens;
  warehouses: Warehouses;
  /** Set by the handler: the record the audit entry names. */
  resourceId: string | null;
}

/** A route of the path below /api/v2. */
export interface ApiRoute extends Route<RouteContext> {
  /** The audit log's name for it, e.g. "dna-sequence.read". */
  action: string;
}
