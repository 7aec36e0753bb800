// The repository's three limits, each a fixed one-minute window on the emulator's clock: API requests
// per user, PDF downloads per signed-in user, PDF downloads per anonymous address.
import type { Clock } from "../../common/clock.js";
import { RateWindows } from "../../common/rate-window.js";
import type { HttpResponse } from "../../common/response.js";
import type { RateLimitSettings } from "../settings.js";
import { apiError, type ErrorTextKey, StatusCode } from "./api-errors.js";

const MINUTE_MS = 60_000;

export class RateLimits {
  readonly api: RateWindows;
  readonly pdfSignedIn: RateWindows;
  readonly pdfAnonymous: RateWindows;

  constructor(clock: Clock, settings: RateLimitSettings) {
    this.api = new RateWindows(clock, settings.apiPerMinute, MINUTE_MS);
    this.pdfSignedIn = new RateWindows(clock, settings.pdfSignedInPerMinute, MINUTE_MS);
    this.pdfAnonymous = new RateWindows(clock, settings.pdfAnonymousPerMinute, MINUTE_MS);
  }

  apply(settings: RateLimitSettings): void {
    this.api.limit = settings.apiPerMinute;
    this.pdfSignedIn.limit = settings.pdfSignedInPerMinute;
    this.pdfAnonymous.limit = settings.pdfAnonymousPerMinute;
  }

  reset(): void {
    this.api.reset();
    this.pdfSignedIn.reset();
    this.pdfAnonymous.reset();
  }
}

export interface Admission {
  /** The x-rate-limit-* headers every answer to the request carries. */
  headers: Record<string, string>;
  /** The 429 (with Retry-After: whole seconds until the window frees) to send instead of serving. */
  refusal?: HttpResponse;
}

/** Counts the request in `windows` under `key`. */
export function admit(windows: RateWindows, key: string, what: string, textKey?: ErrorTextKey): Admission {
  const decision = windows.hit(key);
  const resetSeconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
  const headers = {
    "x-rate-limit-limit": String(decision.limit),
    "x-rate-limit-remaining": String(decision.remaining),
    "x-rate-limit-reset": String(resetSeconds),
  };
  if (decision.allowed) return { headers };
  const refusal = apiError(
    429,
    StatusCode.TOO_MANY_REQUESTS,
    `Too many requests: ${what} are limited to ${decision.limit} per minute. Retry in ${resetSeconds} s.`,
    { "retry-after": String(resetSeconds) },
    textKey,
  );
  return { headers, refusal };
}
