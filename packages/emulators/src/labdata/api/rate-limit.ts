// The per-tenant request limit per user or app (default 100 per 10 s), and the x-rate-limit-* headers
// every authenticated response carries while a limit is set.
import type { RateDecision } from "../../common/rate-window.js";
import type { TenantState } from "../state/emulator-state.js";
import { ApiError } from "./errors.js";

export interface RateOutcome {
  headers: Record<string, string>;
  /** The 429 to send instead of serving the request. */
  refusal?: ApiError;
}

function headersOf(decision: RateDecision): Record<string, string> {
  return {
    "x-rate-limit-limit": String(decision.limit),
    "x-rate-limit-remaining": String(decision.remaining),
    // Seconds left in the window, never 0 while the window is still open.
    "x-rate-limit-reset": String(Math.max(1, Math.ceil(decision.resetMs / 1000))),
  };
}

/** Counts one request by `callerKey` ("user:<id>" or "app:<id>"); no headers when the limit is lifted. */
export function countRequest(tenant: TenantState, callerKey: string): RateOutcome {
  const windows = tenant.rateWindows;
  if (!windows) return { headers: {} };
  const decision = windows.hit(callerKey);
  const headers = headersOf(decision);
  if (decision.allowed) return { headers };
  const retryAfter = headers["x-rate-limit-reset"] ?? "1";
  const message = `Rate limit of ${decision.limit} requests per ${windows.windowMs / 1000} s exceeded; retry after ${retryAfter} s`;
  return {
    headers,
    refusal: new ApiError(429, "rate_limit_error", message, "Too many requests. Please wait and try again.", {
      "retry-after": retryAfter,
    }),
  };
}
