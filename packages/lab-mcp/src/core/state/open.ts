// Which shared state a server uses, from its settings: Redis with REDIS_URL (the key required, Redis
// reachable at start), else this process's own memory.
import { ConfigError } from "../config-error.js";
import { MemoryState } from "./memory-state.js";
import { personNamesKey } from "./person-names.js";
import { describeUrl, RedisUnreachableError } from "./redis-common.js";
import { deriveKey, parseStateKey, SecretBox } from "./secret-box.js";
import type { SharedState } from "./shared-state.js";

export interface StateSettings {
  /** REDIS_URL; undefined: no Redis, MCP_STATE_KEY only signs requestState. */
  redisUrl?: string;
  prefix: string;
  key: Buffer;
  /** Signs requestState, so that a retry may land on any replica. */
  requestStateKey: Buffer;
}

const KEY_HINT = "32 random bytes as 64 hex characters, e.g. from 'openssl rand -hex 32'";

/** The state settings, checked; undefined when neither REDIS_URL nor MCP_STATE_KEY is set. */
export function stateSettingsOf(values: {
  REDIS_URL?: string;
  MCP_STATE_PREFIX: string;
  MCP_STATE_KEY?: string;
}): StateSettings | undefined {
  const { REDIS_URL: redisUrl, MCP_STATE_KEY: keyText, MCP_STATE_PREFIX: prefix } = values;
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/i.test(redisUrl)) {
    throw new ConfigError("REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379");
  }
  if (keyText === undefined) {
    if (redisUrl === undefined) return undefined;
    throw new ConfigError(
      `REDIS_URL is set but MCP_STATE_KEY is not; every replica needs the same MCP_STATE_KEY (${KEY_HINT})`,
    );
  }
  const key = parseStateKey(keyText);
  if (!key) throw new ConfigError(`MCP_STATE_KEY must be ${KEY_HINT}, or the same 32 bytes in base64`);
  return { redisUrl, prefix, key, requestStateKey: deriveKey(key, "requestState") };
}

/** Opens the shared state the settings name; a Redis out of reach at start is an error naming it. */
export async function openSharedState(
  settings: StateSettings | undefined,
  warn: (message: string) => void,
): Promise<SharedState> {
  if (!settings?.redisUrl) return new MemoryState();
  // ioredis is loaded only for a fleet: a server on its own never pays its megabytes.
  const { RedisState } = await import("./redis-state.js");
  return RedisState.open({
    url: settings.redisUrl,
    prefix: settings.prefix,
    box: new SecretBox(settings.key),
    warn,
    shareNamesKey: personNamesKey(settings.key, "rate budget shares"),
  });
}

export { describeUrl, RedisUnreachableError };
