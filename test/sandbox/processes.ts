// The sandbox and demo bins as a user runs them: a child process, its output, a bounded wait, a stop.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { binPath } from "../support/clients.js";

export async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A port from which `count` consecutive ports are free: the sandbox takes consecutive ports. */
export async function freePorts(count: number): Promise<number> {
  for (let attempt = 0; attempt < 30; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    let free = true;
    for (let i = 0; i < count && free; i++) free = await isFree(port + i);
    if (free) return port;
  }
  throw new Error(`no ${count} consecutive free ports found`);
}

export interface RunningBin {
  child: ChildProcess;
  /** stdout and stderr as they came. */
  output(): string;
  stdout(): string;
  /** Waits for the exit, killing the process if it takes longer than `ms`; resolves to the exit code. */
  exited(ms?: number): Promise<number | null>;
}

/** Runs a built bin with the environment of this test run minus its CA: the bins make their own. */
export function runBin(
  bin: string,
  args: string[] = [],
  extraEnv: Record<string, string> = {},
  /** In a process group of its own, as a terminal starts it: then -pid signals the whole group. */
  { ownGroup = false }: { ownGroup?: boolean } = {},
): RunningBin {
  const { NODE_EXTRA_CA_CERTS: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, [binPath(bin), ...args], {
    env: { ...env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
    detached: ownGroup,
  });
  let output = "";
  let stdout = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exit = once(child, "exit").then(([code]) => code as number | null);
  return {
    child,
    output: () => output,
    stdout: () => stdout,
    async exited(ms = 15_000) {
      const killer = setTimeout(() => child.kill("SIGKILL"), ms);
      const code = await exit;
      clearTimeout(killer);
      return code;
    },
  };
}

export async function waitFor(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

/** The JSON block the banner prints after a line starting with `title`. */
export function configBlock(banner: string, title: string): unknown {
  const lines = banner.split("\n");
  const start = lines.findIndex((line) => line.startsWith(title));
  if (start < 0) throw new Error(`no "${title}" in the banner`);
  const end = lines.findIndex((line, index) => index > start && line.trim() === "");
  return JSON.parse(lines.slice(start + 1, end < 0 ? undefined : end).join("\n"));
}
