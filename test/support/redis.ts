// A real Redis for the shared-state tests: Debian's redis-server (`apt-get install redis-server`; .ci/run
// installs it), started per test file on a free loopback port with no persistence, and stopped, killed
// or restarted on the same port by the tests that need Redis to go away. Without a redis-server the
// tests skip, saying so.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findExecutable } from "./executables.js";
import { freePort } from "./ports.js";

/** The redis-server to run: REDIS_SERVER_PATH, else `redis-server` on the PATH or in /usr/bin. */
export const REDIS_SERVER = findExecutable("REDIS_SERVER_PATH", ["redis-server"], ["/usr/bin", "/usr/sbin"]);

export const NO_REDIS =
  "redis-server not found (install Debian's: apt-get install redis-server; or set REDIS_SERVER_PATH): Redis tests skipped";

export interface RunningRedis {
  readonly port: number;
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  /** Stops it (SIGTERM) and waits for the exit. */
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL), as a crash. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
}

/** Starts a redis-server on a free loopback port; the caller stops it. */
export async function startRedis(): Promise<RunningRedis> {
  if (!REDIS_SERVER) throw new Error(NO_REDIS);
  const binary = REDIS_SERVER;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "lab-mcp-redis-"));
  let child: ChildProcess | undefined;

  const launch = async () => {
    const started = spawn(
      binary,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (/ready to accept connections/i.test(output)) {
          clearTimeout(timer);
          started.stdout?.off("data", onData);
          started.stdout?.resume();
          resolve();
        }
      };
      started.stdout?.on("data", onData);
      started.stderr?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
      });
      started.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${output}`));
      });
    });
  };

  const end = async (signal: NodeJS.Signals) => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill(signal);
    await exited;
  };

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await end("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
    kill: () => end("SIGKILL"),
    async restart() {
      await end("SIGKILL");
      await launch();
    },
  };
}

/** A RedisState of its own (its own connection, like another replica) on `redis`, under `prefix`. */
export async function openRedisState(
  redis: RunningRedis,
  options: { prefix?: string; key?: Buffer; warnings?: string[] } = {},
) {
  const { RedisState } = await import("../../packages/lab-mcp/src/core/state/redis-state.js");
  const { SecretBox } = await import("../../packages/lab-mcp/src/core/state/secret-box.js");
  const { personNamesKey } = await import("../../packages/lab-mcp/src/core/state/person-names.js");
  const key = options.key ?? TEST_STATE_KEY;
  return RedisState.open({
    url: redis.url,
    prefix: options.prefix ?? "lab-mcp:test:",
    box: new SecretBox(key),
    warn: (message) => options.warnings?.push(message),
    // As open.ts derives it: every replica names a share alike.
    shareNamesKey: personNamesKey(key, "rate budget shares"),
  });
}

/** MCP_STATE_KEY of the tests (64 hex characters). */
export const TEST_STATE_KEY_HEX = "7f".repeat(32);
export const TEST_STATE_KEY = Buffer.from(TEST_STATE_KEY_HEX, "hex");
