// npm start: the built lab-sandbox bin brings up the emulator and example_mcp over HTTP, prints what a
// user pastes into a client, serves calls, and stops everything on Ctrl-C.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { binPath, connectHttp, expectSearchWorks, textOf } from "../support/clients.js";

async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A port whose next one is free too: the sandbox takes consecutive ports. */
async function freePorts(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if ((await isFree(port)) && (await isFree(port + 1))) return port;
  }
  throw new Error("no two consecutive free ports found");
}

function startSandbox(port: number): { child: ChildProcess; output: () => string } {
  // The sandbox makes and trusts its own CA: the test run's CA must not be needed.
  const { NODE_EXTRA_CA_CERTS: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, [binPath("lab-sandbox"), "--port", String(port)], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 150 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("lab-sandbox", () => {
  it("serves example_mcp on the asked port, prints client configuration, and stops cleanly on SIGINT", async () => {
    const port = await freePorts();
    const sandbox = startSandbox(port);
    try {
      await waitFor(() => sandbox.output().includes("Cursor (HTTP)"), "the banner");
      const endpoint = `http://127.0.0.1:${port + 1}/mcp`;
      expect(sandbox.output()).toContain(`example_mcp  ${endpoint}`);
      const labdataEndpoint = `http://127.0.0.1:${port}/mcp`;
      expect(sandbox.output()).toContain(`labdata_mcp  ${labdataEndpoint}`);
      const configs = sandbox.output();
      expect(configs).toContain('"type": "http"');
      expect(configs).toContain('"NODE_EXTRA_CA_CERTS"');

      const conn = await connectHttp(endpoint);
      try {
        await expectSearchWorks(conn.client);
      } finally {
        await conn.close();
      }
      const labdata = await connectHttp(labdataEndpoint);
      try {
        const me = await labdata.client.callTool({ name: "labdata_get_current_user", arguments: {} });
        expect(textOf(me).text).toContain("- **Authentication**: API key (HTTP Basic)");
      } finally {
        await labdata.close();
      }
    } finally {
      sandbox.child.kill("SIGINT");
      const [code] = await once(sandbox.child, "exit");
      expect(code).toBe(0);
    }
    // Its tool server went with it.
    await expect(connectHttp(`http://127.0.0.1:${port}/mcp`)).rejects.toThrow();
  });

  it("names the setting to change when its port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const sandbox = startSandbox(port);
      const [code] = await once(sandbox.child, "exit");
      expect(code).toBe(2);
      expect(sandbox.output().trim()).toBe(
        `lab-sandbox: port ${port} is in use; choose another with --port <n> or LAB_SANDBOX_PORT`,
      );
    } finally {
      blocker.close();
    }
  });
});
