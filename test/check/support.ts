// Runs a built bin's subcommand (`check`) to its end, as a user at a terminal would: its exit code and
// what it printed.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { binPath } from "../support/clients.js";

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The bin with exactly `env` (plus PATH): no NODE_EXTRA_CA_CERTS unless given. */
export function runBin(bin: string, args: string[], env: Record<string, string>): Promise<Finished> {
  const child = spawn(process.execPath, [binPath(bin), ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

/** A loopback port nothing listens on (taken, then released). */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.once("error", reject);
  });
}
