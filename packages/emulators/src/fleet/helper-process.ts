// A program the fleet runs beside the tool servers (redis-server, haproxy): in a process group of its
// own, so that Ctrl-C in the terminal reaches the fleet, which stops it in order; and tied to the
// fleet's life, so that a fleet killed outright (SIGKILL) leaves none running: util-linux's setpriv
// (on every Debian) asks the kernel to send it SIGTERM when the fleet dies.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { prefixedLines } from "./lines.js";
import { findProgram } from "./programs.js";

/** How long it may take to stop after SIGTERM before its group is killed. */
const STOP_TIMEOUT_MS = 5_000;

export interface HelperProcess {
  readonly name: string;
  readonly pid: number;
  /** Everything it wrote so far (before it started logging to the caller's stream). */
  output(): string;
  /** From now on its lines go to `out`, prefixed with its name. */
  logTo(out: NodeJS.WritableStream | "ignore"): void;
  /** Resolves when it exits, whoever stopped it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM to its group, SIGKILL after a while; resolves once it exited. */
  stop(): Promise<void>;
}

const SETPRIV = findProgram("setpriv");

export function startHelperProcess(name: string, program: string, args: string[]): HelperProcess {
  const [command, commandArgs] = SETPRIV
    ? [SETPRIV, ["--pdeathsig", "TERM", "--", program, ...args]]
    : [program, args];
  const child: ChildProcess = spawn(command, commandArgs, {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", (error) => {
      output += `${error.message}\n`;
      resolve({ code: null, signal: null });
    });
  });
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      // setpriv execs the program: the pid is the program's, and the group is its own.
      process.kill(-(child.pid as number), signal);
    } catch {
      // Gone already.
    }
  };
  return {
    name,
    pid: child.pid ?? -1,
    output: () => output,
    logTo(out) {
      for (const stream of [child.stdout, child.stderr]) {
        stream?.off("data", collect);
        if (out === "ignore") stream?.resume();
        else stream?.pipe(prefixedLines(name, out));
      }
    },
    exited,
    async stop() {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const killer = setTimeout(() => signalGroup("SIGKILL"), STOP_TIMEOUT_MS);
      const done = once(child, "exit");
      signalGroup("SIGTERM");
      await done;
      clearTimeout(killer);
    },
  };
}
