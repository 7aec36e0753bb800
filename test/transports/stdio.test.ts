// example-mcp over stdio, as a desktop client starts it: the built bin as a subprocess, a real SDK client
// or raw JSON-RPC lines on its stdin, and the HTTPS example emulator as its remote.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { binPath, type Connected, connectStdio, textOf } from "../support/clients.js";
import { exampleEnv, startTestExample, useExampleEmulator } from "../support/emulator.js";

const SEARCH_PATH = "/api/users/search";

const emulator = useExampleEmulator();

describe("through the SDK client", () => {
  let conn: Connected & { stderr: () => string };
  beforeAll(async () => {
    conn = await connectStdio("example-mcp", exampleEnv(emulator));
  });
  afterAll(async () => {
    await conn?.close();
  });

  it("lists example_search_users", async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("example_search_users");
  });

  it("returns the markdown search result", async () => {
    const result = await conn.client.callTool({
      name: "example_search_users",
      arguments: { query: "chen", limit: 2 },
    });
    const { text, isError } = textOf(result);
    expect(isError).toBe(false);
    expect(text.split("\n")[0]).toBe("# User Search Results: 'chen'");
    expect(text).toMatch(/^Found \d+ users \(showing 2\)$/m);
  });

  it("reports a failing remote as the error text, and the next call still works", async () => {
    emulator.faults.inject({ kind: "status", status: 500 }, { path: SEARCH_PATH });
    const failed = textOf(
      await conn.client.callTool({ name: "example_search_users", arguments: { query: "chen" } }),
    );
    expect(failed).toEqual({ text: "Error: API request failed with status 500", isError: true });

    const next = textOf(
      await conn.client.callTool({ name: "example_search_users", arguments: { query: "chen" } }),
    );
    expect(next.isError).toBe(false);
    expect(next.text).toContain("# User Search Results: 'chen'");
  });
});

// --- the raw process -------------------------------------------------------------------------------

interface RawServer {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  send(message: unknown): void;
  /** Resolves with the response of request `id`; rejects after `ms`. */
  response(id: number, ms?: number): Promise<Record<string, unknown>>;
}

function spawnRaw(env: Record<string, string>): RawServer {
  const child = spawn(process.execPath, [binPath("example-mcp")], {
    env: { PATH: process.env.PATH ?? "", NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "", ...env },
  });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  const waiters: Array<() => void> = [];
  child.stdout.on("data", (chunk: Buffer) => {
    stdout.push(chunk);
    for (const wake of waiters.splice(0)) wake();
  });
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  child.once("exit", () => {
    for (const wake of waiters.splice(0)) wake();
  });
  const stdoutText = () => Buffer.concat(stdout).toString("utf8");
  const find = (id: number) =>
    stdoutText()
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => {
        try {
          return JSON.parse(line) as Record<string, unknown>;
        } catch {
          return undefined;
        }
      })
      .find((message) => message?.id === id && ("result" in message || "error" in message));
  return {
    child,
    stdout: stdoutText,
    stderr: () => Buffer.concat(stderr).toString("utf8"),
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    response(id, ms = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`no response to request ${id} within ${ms} ms; stdout: ${stdoutText()}`));
        }, ms);
        const check = () => {
          const found = find(id);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else if (child.exitCode !== null) {
            clearTimeout(timer);
            reject(new Error(`exited with ${child.exitCode} before answering ${id}`));
          } else waiters.push(check);
        };
        check();
      });
    },
  };
}

/** The exit code and signal, or a rejection (and SIGKILL) when the process is still running after `ms`. */
function exitOf(child: ChildProcessWithoutNullStreams, ms = 5_000) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      return resolve({ code: child.exitCode, signal: child.signalCode });
    }
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`still running ${ms} ms later`));
    }, ms);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
};

async function initialized(env: Record<string, string>): Promise<RawServer> {
  const server = spawnRaw(env);
  server.send(INITIALIZE);
  const init = await server.response(1);
  expect(init.result).toMatchObject({ serverInfo: { name: "example_mcp" } });
  server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return server;
}

function callTool(id: number, args: Record<string, unknown>, name = "example_search_users") {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

function resultText(response: Record<string, unknown>): { text: string; isError: boolean } {
  const result = response.result as { content: Array<{ type: string; text: string }>; isError?: boolean };
  return { text: result.content.map((block) => block.text).join("\n"), isError: result.isError === true };
}

/** Every byte on stdout is a newline-terminated JSON-RPC 2.0 message. */
function expectOnlyJsonRpc(stdout: string): void {
  expect(stdout.endsWith("\n")).toBe(true);
  const lines = stdout.slice(0, -1).split("\n");
  for (const line of lines) {
    let parsed: unknown;
    expect(() => {
      parsed = JSON.parse(line);
    }, `stdout line is not JSON: ${line}`).not.toThrow();
    expect(parsed, line).toMatchObject({ jsonrpc: "2.0" });
  }
}

describe("stdout purity", () => {
  it("writes nothing but JSON-RPC on stdout, through success, bad input, bad lines and remote errors", async () => {
    const server = await initialized(exampleEnv(emulator));
    try {
      // Debug logging makes the server report its remote requests as notifications: more output to check.
      server.send({ jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "debug" } });
      server.send({ jsonrpc: "2.0", id: 3, method: "tools/list" });
      server.send(callTool(4, { query: "chen", limit: 3 }));
      server.send(callTool(5, { query: " ", limit: 300, surprise: true }));
      server.send(callTool(6, { query: "chen" }, "example_no_such_tool"));
      server.child.stdin.write("this line is not JSON\n");
      const [list, found, invalid, unknown] = await Promise.all(
        [3, 4, 5, 6].map((id) => server.response(id)),
      );

      // The fault is armed only now, so that it hits call 7 and not an earlier search.
      emulator.faults.inject({ kind: "status", status: 500 }, { path: SEARCH_PATH });
      server.send(callTool(7, { query: "anna" }));
      const failed = await server.response(7);
      server.send(callTool(8, { query: "anna" }));
      const after = await server.response(8);

      expect(JSON.stringify(list?.result)).toContain("example_search_users");
      expect(resultText(found as Record<string, unknown>).text).toContain("# User Search Results: 'chen'");
      expect(resultText(invalid as Record<string, unknown>)).toMatchObject({
        isError: true,
        text: expect.stringMatching(/^Error: /),
      });
      expect(resultText(unknown as Record<string, unknown>).isError).toBe(true);
      expect(resultText(failed as Record<string, unknown>)).toEqual({
        text: "Error: API request failed with status 500",
        isError: true,
      });
      expect(resultText(after as Record<string, unknown>).text).toContain("# User Search Results: 'anna'");

      server.child.stdin.end();
      expect(await exitOf(server.child)).toEqual({ code: 0, signal: null });
      expectOnlyJsonRpc(server.stdout());
      expect(server.stdout()).not.toContain(emulator.apiKey);
      expect(server.stderr()).not.toContain(emulator.apiKey);
    } finally {
      server.child.kill("SIGKILL");
    }
  });

  it("reports a rejected API key as the auth error without ever writing the key anywhere", async () => {
    const wrongKey = "ex_wrong_key_4f1d2c3b5a69788796a5b4c3d2e1f0a9";
    const server = await initialized(exampleEnv(emulator, { EXAMPLE_API_KEY: wrongKey }));
    try {
      server.send({ jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "debug" } });
      server.send(callTool(3, { query: "chen", response_format: "json" }));
      expect(resultText(await server.response(3))).toEqual({
        text: "Error: Invalid API authentication",
        isError: true,
      });

      server.child.stdin.end();
      expect(await exitOf(server.child)).toEqual({ code: 0, signal: null });
      expectOnlyJsonRpc(server.stdout());
      for (const output of [server.stdout(), server.stderr()]) {
        expect(output).not.toContain(wrongKey);
        expect(output).not.toContain(emulator.apiKey);
      }
    } finally {
      server.child.kill("SIGKILL");
    }
  });
});

describe.concurrent("ending the process", () => {
  it("exits with code 0 when the client closes stdin, even with a remote call still in flight", async () => {
    // An emulator of its own, whose answer would take 60 s: the server must not wait for it.
    const slow = await startTestExample();
    const server = await initialized(exampleEnv(slow));
    try {
      slow.faults.inject({ kind: "delay", ms: 60_000 }, { path: SEARCH_PATH });
      server.send(callTool(2, { query: "chen" }));
      for (let i = 0; i < 100 && slow.requests.count(SEARCH_PATH) === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(slow.requests.count(SEARCH_PATH)).toBe(1);

      server.child.stdin.end();
      expect(await exitOf(server.child)).toEqual({ code: 0, signal: null });
    } finally {
      server.child.kill("SIGKILL");
      await slow.close();
    }
  });

  it.each(["SIGTERM", "SIGINT"] as const)("exits with code 0 on %s", async (signal) => {
    const server = await initialized(exampleEnv(emulator));
    try {
      server.child.kill(signal);
      expect(await exitOf(server.child)).toEqual({ code: 0, signal: null });
    } finally {
      server.child.kill("SIGKILL");
    }
  });

  it("exits with code 0 and no stack trace when the client closes its end of our stdout (EPIPE)", async () => {
    const server = await initialized(exampleEnv(emulator));
    try {
      // The client stops reading: the next answer the server writes meets a closed pipe.
      server.child.stdout.destroy();
      server.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      server.send({ jsonrpc: "2.0", id: 3, method: "ping" });
      expect(await exitOf(server.child)).toEqual({ code: 0, signal: null });
      expect(server.stderr()).not.toMatch(/EPIPE|Error|\n\s+at /);
    } finally {
      server.child.kill("SIGKILL");
    }
  });
});
