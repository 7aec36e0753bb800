// Starts one tool-server bin as a child process serving streamable HTTP, trusting the sandbox CA.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { isInheritableSetting } from "./servers.js";

/** How long a tool server may take to say it is listening. */
const START_TIMEOUT_MS = 20_000;
/** How long it may take to stop after SIGTERM before it is killed. */
const STOP_TIMEOUT_MS = 5_000;

export interface ToolServerProcess {
  url: string;
  stop(): Promise<void>;
}

/** A port another program holds. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly serverName?: string,
  ) {
    super(`port ${port} is in use`);
    this.name = "PortInUseError";
  }
}

export async function startToolServer(options: {
  binPath: string;
  serverName: string;
  port: number;
  caFile: string;
  env: Record<string, string>;
  /** Where the server's log lines go once it listens (default: this process's stderr). */
  logs?: NodeJS.WritableStream | "ignore";
  /** Called when the server exits by itself, not through stop(). */
  onUnexpectedExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}): Promise<ToolServerProcess> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => isInheritableSetting(name)),
  );
  const child: ChildProcess = spawn(process.execPath, [options.binPath], {
    env: {
      ...inherited,
      ...options.env,
      NODE_EXTRA_CA_CERTS: options.caFile,
      MCP_TRANSPORT: "http",
      MCP_HOST: "127.0.0.1",
      MCP_PORT: String(options.port),
    },
    // The IPC channel is how the server knows we are alive: it stops when the channel closes, so a
    // sandbox killed outright (SIGKILL) leaves no server holding its port.
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let stderr = "";
  let stopping = false;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(
          new Error(`${options.serverName} did not start within ${START_TIMEOUT_MS / 1000} s: ${stderr}`),
        );
      }, START_TIMEOUT_MS);
      child.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(stderr);
        if (match) {
          clearTimeout(timer);
          resolve(match[1] as string);
        }
      });
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once("exit", () => {
        clearTimeout(timer);
        if (/port \d+ is in use/.test(stderr)) reject(new PortInUseError(options.port, options.serverName));
        else reject(new Error(stderr.trim() || `${options.serverName} exited before listening`));
      });
    });
    // From now on its log lines go where the caller wants them.
    child.stderr?.removeAllListeners("data");
    if (options.logs === "ignore") child.stderr?.resume();
    else child.stderr?.pipe(options.logs ?? process.stderr, { end: false });
    child.once("exit", (code, signal) => {
      if (!stopping) options.onUnexpectedExit?.(code, signal);
    });
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }

  async function stop(): Promise<void> {
    stopping = true;
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const killer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
    clearTimeout(killer);
  }
}
