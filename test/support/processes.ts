// Runs a program to its end, as a user at a terminal would, and keeps what it printed: one runner for
// the bins' subcommands, the start-up checks and the Inspector CLI. A program still running at the
// deadline is killed, and the run rejects with what it printed to stderr so far.
import { spawn } from "node:child_process";
import { freePort } from "./ports.js";

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `command args` with exactly `env` (the caller adds PATH and anything else it wants passed on). */
export function runToEnd(
  command: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<Finished> {
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`still running after ${timeoutMs / 1000} s; stderr: ${stderr}`));
    }, timeoutMs);
    child.once("error", reject);
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A loopback port nothing listens on (taken, then released). */
export const closedPort = freePort;
