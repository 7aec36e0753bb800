// When and how long to wait before asking again after a 429.

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the agent is told instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 10_000,
  maxRetryAfterMs: 60_000,
};

/** Retry-After as milliseconds: either delta-seconds or an HTTP date. Undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Above this, an x-rate-limit-reset is a point in time (Unix seconds), not seconds from now. */
const EPOCH_SECONDS_FROM = 1e9;
/** Above this, it is Unix milliseconds. */
const EPOCH_MILLISECONDS_FROM = 1e12;

/**
 * x-rate-limit-reset as milliseconds from now. Most remotes send seconds until the reset; some send the
 * reset's time as Unix seconds (or milliseconds), which no window is long enough to be mistaken for.
 * Undefined when absent, negative or unreadable.
 */
export function parseRateLimitReset(value: string | null, now = Date.now()): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number)) return undefined;
  if (number >= EPOCH_MILLISECONDS_FROM) return Math.max(0, number - now);
  if (number >= EPOCH_SECONDS_FROM) return Math.max(0, number * 1000 - now);
  return number * 1000;
}

/**
 * Delay before retry number `attempt` (0-based): what the remote asked for when it said, otherwise
 * exponential backoff with full jitter so that concurrent callers do not retry in lockstep.
 */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  policy: RetryPolicy,
  random = Math.random,
): number {
  const jitter = random() * policy.baseDelayMs;
  if (retryAfterMs !== undefined) return retryAfterMs + jitter;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.max(1, random() * ceiling);
}
