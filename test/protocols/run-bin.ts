// protocols-mcp run as a child process (`login`, `logout`, `--help`): its output as it comes, the
// authorize URL it prints, and its exit code; killed after 15 s at the latest.
import { type ChildProcess, spawn } from "node:child_process";
import { binPath } from "../support/clients.js";

export interface Running {
  child: ChildProcess;
  authorizeUrl: Promise<string>;
  exit: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

export function run(args: string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, [binPath("protocols-mcp"), ...args], {
    env: {
      PATH: env.PATH ?? process.env.PATH ?? "",
      NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const authorizeUrl = new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      // The address, once the whole announcement (ending with the "Waiting" line) is out.
      const match = /^\s+(https:\/\/\S+\/api\/v3\/oauth\/authorize\?\S+)$/m.exec(stdout);
      if (match && stdout.includes("Ctrl-C to stop)...\n")) resolve(match[1] as string);
    });
    child.once("exit", () => reject(new Error(`exited without a URL; stdout: ${stdout} stderr: ${stderr}`)));
  });
  authorizeUrl.catch(() => undefined);
  const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  void exit.then(() => clearTimeout(killer));
  return { child, authorizeUrl, exit, stdout: () => stdout, stderr: () => stderr };
}
