// Starts one tool-server bin as a child process serving streamable HTTP, trusting the sandbox CA.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";

export interface ToolServerProcess {
  url: string;
  stop(): Promise<void>;
}

export async function startToolServer(options: {
  binPath: string;
  port: number;
  caFile: string;
  env: Record<string, string>;
}): Promise<ToolServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [options.binPath], {
    env: {
      ...process.env,
      ...options.env,
      NODE_EXTRA_CA_CERTS: options.caFile,
      MCP_TRANSPORT: "http",
      MCP_HOST: "127.0.0.1",
      MCP_PORT: String(options.port),
    },
    stdio: ["ignore", "inherit", "pipe"],
  });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1] as string);
    });
    child.once("exit", () => reject(new Error(stderr.trim() || "the tool server exited before listening")));
  });
  // From now on its log lines go to our stderr.
  child.stderr?.removeAllListeners("data");
  child.stderr?.pipe(process.stderr);
  return {
    url,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
