// Real MCP clients (the SDK's Client) over the three transports: in memory, stdio to the built bin,
// and streamable HTTP to the built bin.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import {
  Client as ModernClient,
  type ClientCapabilities as ModernClientCapabilities,
  InMemoryTransport as ModernInMemoryTransport,
  StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult, ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { serveStdio as serveSdkStdio } from "@modelcontextprotocol/server/stdio";
import { expect, vi } from "vitest";
import type { ClientSession } from "../../packages/lab-mcp/src/core/caller.js";
import {
  createMcpServer,
  createServerFactory,
  type ServerFactory,
} from "../../packages/lab-mcp/src/core/server/factory.js";
import { prepare } from "../../packages/lab-mcp/src/core/start/run.js";
import type { ServiceDefinition } from "../../packages/lab-mcp/src/core/start/service.js";
import type { SharedState } from "../../packages/lab-mcp/src/core/state/shared-state.js";
import { useStarted } from "./fixture.js";

export const ROOT = join(import.meta.dirname, "..", "..");
/** The tool servers' bins are the product package's; the emulators', sandbox's and demo's the other one's. */
const PRODUCT_BINS = new Set(["labdata-mcp", "protocols-mcp", "example-mcp"]);
export const binPath = (name: string) =>
  join(ROOT, "packages", PRODUCT_BINS.has(name) ? "lab-mcp" : "emulators", "dist", "bin", `${name}.js`);

export interface Connected {
  client: Client;
  close(): Promise<void>;
}

function newClient(capabilities: ClientCapabilities = {}): Client {
  return new Client({ name: "lab-mcp-tests", version: "1.0.0" }, { capabilities });
}

/**
 * Lists the tools once after connecting: the SDK client checks each tool's structuredContent against
 * its outputSchema only for tools it has listed, and so every call of every test is checked.
 */
async function listedTools(client: Client): Promise<void> {
  await client.listTools();
}

/** The server in this process, the client linked to it in memory; settings as the bin would read them. */
export async function connectInMemory<S>(
  definition: ServiceDefinition<S>,
  env: Record<string, string>,
  capabilities: ClientCapabilities = {},
  /** The caller as the transport would make it (e.g. a signed-in person), and a shared state (a replica's). */
  options: { clientSession?: ClientSession; state?: SharedState } = {},
): Promise<Connected> {
  const prepared = prepare(definition, [], env, options.state);
  if (prepared.help) throw new Error("unexpected --help");
  const server = options.clientSession
    ? createServerFactory(definition, prepared.service, prepared.core)(options.clientSession)
    : createMcpServer(definition, prepared.service, prepared.core);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = newClient(capabilities);
  await client.connect(clientSide);
  await listedTools(client);
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

/** A stdio transport to the built bin with `env` (PATH and the test CA added), and what it wrote to stderr. */
export function binStdioTransport(bin: string, env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath(bin)],
    env: { PATH: process.env.PATH ?? "", NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "", ...env },
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { transport, stderr: () => stderr };
}

/** The built bin as a subprocess over stdio, as Claude Desktop would start it. */
export async function connectStdio(
  bin: string,
  env: Record<string, string>,
  capabilities: ClientCapabilities = {},
): Promise<Connected & { stderr: () => string; pid: number }> {
  const { transport, stderr: written } = binStdioTransport(bin, env);
  const client = newClient(capabilities);
  await client.connect(transport);
  await listedTools(client);
  return { client, close: () => client.close(), stderr: written, pid: transport.pid ?? -1 };
}

/** One tool call on a fresh stdio server of `bin`: what the agent reads, and what the server said on stderr. */
export async function callOnceOverStdio(
  bin: string,
  env: Record<string, string>,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; isError: boolean; stderr: string }> {
  const connected = await connectStdio(bin, env);
  let result: { text: string; isError: boolean };
  try {
    result = textOf(await connected.client.callTool({ name, arguments: args }));
  } finally {
    await connected.close();
  }
  // Read after the server has stopped: the call log's line may follow the answer on the wire.
  return { ...result, stderr: connected.stderr() };
}

export interface HttpServerProcess {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The built bin serving streamable HTTP on a free loopback port, set by env. */
export function startHttpBin(
  bin: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<HttpServerProcess> {
  return startListeningBin(bin, { env: { MCP_TRANSPORT: "http", MCP_PORT: "0", ...env }, nodeArgs });
}

/** The built bin with the given env and flags, once it says it is listening. */
export async function startListeningBin(
  bin: string,
  {
    env = {},
    args = [],
    nodeArgs = [],
  }: {
    env?: Record<string, string>;
    args?: string[] /** Options of node itself, e.g. --expose-gc. */;
    nodeArgs?: string[];
  },
): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, binPath(bin), ...args], {
    env: { PATH: process.env.PATH ?? "", NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line; stderr: ${stderr}`)), 15_000);
    let listening = false;
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      // Searched only until found: the whole stderr grows with a call-log line per call.
      const match = listening ? null : /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        listening = true;
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening; stderr: ${stderr}`));
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    async stop(signal = "SIGTERM") {
      if (child.exitCode !== null) return child.exitCode;
      const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      child.kill(signal);
      const [code] = await once(child, "exit");
      clearTimeout(killer);
      return code as number | null;
    },
  };
}

/** The first tool-call line of a server's call log, parsed; waited for (it is written once the answer is out). */
export function firstToolCallLine(server: { stderr(): string }): Promise<Record<string, unknown>> {
  return vi.waitFor(
    () => {
      const line = server
        .stderr()
        .split("\n")
        .find((text) => text.includes('"tool_call"'));
      if (!line) throw new Error("no tool_call line yet");
      return JSON.parse(line) as Record<string, unknown>;
    },
    { timeout: 5_000, interval: 20 },
  );
}

/** Asserts that a search for "chen" answers the markdown results, as a user would check it works. */
export async function expectSearchWorks(client: Client): Promise<void> {
  const result = textOf(
    await client.callTool({ name: "example_search_users", arguments: { query: "chen" } }),
  );
  expect(result.isError).toBe(false);
  expect(result.text).toContain("# User Search Results: 'chen'");
}

export async function connectHttp(url: string, token?: string): Promise<Connected> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = newClient();
  await client.connect(transport);
  await listedTools(client);
  return {
    client,
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** The one text of a tool result, with its error flag; only files (resource links) may follow it. */
export function textOf(result: unknown): { text: string; isError: boolean } {
  const { content, isError } = result as CallToolResult;
  const [first, ...rest] = content;
  const files = rest.every((block) => block.type === "resource_link" || block.type === "resource");
  if (first?.type !== "text" || !files)
    throw new Error(`expected one text block: ${JSON.stringify(content)}`);
  return { text: first.text, isError: isError === true };
}

/** A connection whose progress messages callText records (see `listening` in protocols.ts). */
interface MaybeHearing {
  client: Client;
  heard?: { progress: string[] };
}

/** Calls a tool and returns its text and error flag, recording progress messages into `heard`. */
export async function callText(connection: MaybeHearing, name: string, args: Record<string, unknown> = {}) {
  const result = await connection.client.callTool({ name, arguments: args }, undefined, {
    onprogress: (progress) => connection.heard?.progress.push(progress.message ?? ""),
    resetTimeoutOnProgress: true,
  });
  return textOf(result);
}

/** A tool's JSON answer (response_format json), parsed; a tool error throws with its text. */
export async function callJson<T = Record<string, unknown>>(
  connection: MaybeHearing,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const { text, isError } = await callText(connection, name, { ...args, response_format: "json" });
  if (isError) throw new Error(`${name} failed: ${text}`);
  return JSON.parse(text) as T;
}

/** An in-memory client of `service` for the calling file or describe, connected with `env()`. */
export function useInMemoryClient<S>(
  service: ServiceDefinition<S>,
  env: () => Record<string, string>,
  capabilities: ClientCapabilities = {},
): Connected {
  return useStarted("the in-memory client", () => connectInMemory(service, env(), capabilities));
}

// 2026-07-28 clients: the SDK v2 Client pinned to the current revision (no initialize, no session;
// every request carries its version and capabilities in _meta). It fulfils "input required" answers
// with the same request handlers a 2025 client registers, and retries the call.
export const MODERN_PROTOCOL = "2026-07-28";

/**
 * A 2026-07-28 tools/list as raw HTTP, with the given extra headers: what a client sends, for tests of
 * the HTTP layer (status codes, WWW-Authenticate) that an SDK client would hide.
 */
export function rawModernList(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN_PROTOCOL,
      "mcp-method": "tools/list",
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN_PROTOCOL,
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });
}

export interface ModernConnected {
  client: ModernClient;
  close(): Promise<void>;
}

export function newModernClient(capabilities: ModernClientCapabilities = {}): ModernClient {
  return new ModernClient(
    { name: "lab-mcp-tests", version: "1.0.0" },
    { capabilities, versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } },
  );
}

/** The server factory of one in-memory process of a service (a replica, on `state` when given). */
export function inMemoryFactory<S>(
  definition: ServiceDefinition<S>,
  env: Record<string, string>,
  state?: SharedState,
): ServerFactory {
  const prepared = prepare(definition, [], env, state);
  if (prepared.help) throw new Error("unexpected --help");
  return createServerFactory(definition, prepared.service, prepared.core);
}

/** The server in this process, served as stdio serves it, to a 2026-07-28 client linked in memory. */
export async function connectModernInMemory<S>(
  definition: ServiceDefinition<S>,
  env: Record<string, string>,
  capabilities: ModernClientCapabilities = {},
  /**
   * The caller as the transport would make it (e.g. a signed-in person), and a shared state (a
   * replica's), or the factory of a process made by inMemoryFactory (several clients of one replica).
   */
  options: { clientSession?: ClientSession; state?: SharedState; factory?: ServerFactory } = {},
): Promise<ModernConnected> {
  const factory = options.factory ?? inMemoryFactory(definition, env, options.state);
  const [clientSide, serverSide] = ModernInMemoryTransport.createLinkedPair();
  const clientSession = options.clientSession ?? { caller: "in-memory", isolated: false };
  const served = serveSdkStdio(() => factory(clientSession), {
    transport: serverSide,
  });
  const client = newModernClient(capabilities);
  await client.connect(clientSide);
  return {
    client,
    async close() {
      await client.close();
      await served.close();
    },
  };
}

/** The built bin over stdio, to a 2026-07-28 client. */
export async function connectModernStdio(
  bin: string,
  env: Record<string, string>,
  capabilities: ModernClientCapabilities = {},
): Promise<ModernConnected> {
  const transport = new ModernStdioClientTransport({
    command: process.execPath,
    args: [binPath(bin)],
    env: { PATH: process.env.PATH ?? "", NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "", ...env },
    stderr: "pipe",
  });
  const client = newModernClient(capabilities);
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** Streamable HTTP without a session, to a 2026-07-28 client; `seen` collects every response's headers. */
export async function connectModernHttp(
  url: string,
  options: { token?: string; capabilities?: ModernClientCapabilities; seen?: Headers[] } = {},
): Promise<ModernConnected> {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const transport = new ModernStreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      options.seen?.push(response.headers);
      return response;
    },
  });
  const client = newModernClient(options.capabilities);
  await client.connect(transport);
  return { client, close: () => client.close() };
}
