// What the rest of the code knows of Redis without loading ioredis (redis-state.ts, loaded with import()
// only for a fleet): how a Redis URL is named in messages, and the error of a Redis out of reach.

/** host:port of a Redis URL, never its password. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return "REDIS_URL";
  }
}

/** Redis could not be reached at start: the message names where and why. */
export class RedisUnreachableError extends Error {}
