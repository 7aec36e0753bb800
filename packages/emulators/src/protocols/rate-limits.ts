// The repository's three limits, each a fixed one-minute window on the emulator's clock: API requests
// per user, PDF downloads per signed-in user, PDF downloads per anonymous address.
import type { ServerResponse } from "node:http";
import type { Clock } from "../common/clock.js";
import { RateWindows } from "../common/rate-window.js";
import { type ErrorTextKey, StatusCode, sendApiError } from "./api-errors.js";
import type { RateLimitSettings } from "./settings.js";

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

/**
 * Counts the request in `windows` under `key`. Sets the x-rate-limit-* headers; beyond the limit answers
 * 429 with Retry-After (whole seconds until the window frees) and returns false.
 */
export function admit(
  windows: RateWindows,
  key: string,
  res: ServerResponse,
  what: string,
  textKey?: ErrorTextKey,
): boolean {
  const decision = windows.hit(key);
  const resetSeconds = Math.max(1, Math.ceil(decision.resetMs / 1000));
  res.setHeader("x-rate-limit-limit", String(decision.limit));
  res.setHeader("x-rate-limit-remaining", String(decision.remaining));
  res.setHeader("x-rate-limit-reset", String(resetSeconds));
  if (decision.allowed) return true;
  sendApiError(
    res,
    429,
    StatusCode.TOO_MANY_REQUESTS,
    `Too many requests: ${what} are limited to ${decision.limit} per minute. Retry in ${resetSeconds} s.`,
    { "retry-after": String(resetSeconds) },
    textKey,
  );
  return false;
}
