// example-mcp over streamable HTTP: the built bin listening on loopback, reached by the SDK client and by
// raw node:http requests (to set Host, Origin and Authorization by hand), the HTTPS emulator behind it.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { request } from "node:http";
import { connect, createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  binPath,
  connectHttp,
  expectSearchWorks,
  firstToolCallLine,
  type HttpServerProcess,
  startHttpBin,
  textOf,
} from "../support/clients.js";
import { exampleEnv, useExampleEmulator } from "../support/emulator.js";
import { probe, type Reply } from "../support/raw-http.js";

const SEARCH_PATH = "/api/users/search";
const ACCEPT = "application/json, text/event-stream";

/** One raw HTTP exchange with the server at `url` (its port), headers exactly as given. */
function raw(
  url: string,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Reply> {
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  return probe(url, opts.path ?? new URL(url).pathname, {
    method: opts.method ?? "POST",
    headers: {
      accept: ACCEPT,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...opts.headers,
    },
    ...(body === undefined ? {} : { body }),
  });
}

const initialize = (id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1.0.0" } },
});

const searchCall = (id: number, query: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "example_search_users", arguments: { query } },
});

/** A session opened by hand: initialize, then notifications/initialized. */
async function rawSession(url: string): Promise<string> {
  const init = await raw(url, { body: initialize() });
  expect(init.status).toBe(200);
  const sessionId = init.headers["mcp-session-id"];
  expect(typeof sessionId).toBe("string");
  const headers = { "mcp-session-id": sessionId as string, "mcp-protocol-version": "2025-06-18" };
  const notified = await raw(url, { headers, body: { jsonrpc: "2.0", method: "notifications/initialized" } });
  expect(notified.status).toBe(202);
  return sessionId as string;
}

/** Resolves when a TCP connection to `port` on loopback is refused; rejects if one is accepted. */
function refused(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.setTimeout(5_000, () => {
      socket.destroy();
      reject(new Error("connection neither accepted nor refused within 5 s"));
    });
    socket.once("connect", () => {
      socket.destroy();
      reject(new Error(`port ${port} still accepts connections`));
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED") resolve();
      else reject(error);
    });
  });
}

/** The exit code of a running server after `signal`, bounded: SIGKILL and a rejection after 5 s. */
async function stopWithin(server: HttpServerProcess, signal: NodeJS.Signals): Promise<number | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      server.child.kill("SIGKILL");
      reject(new Error(`still running 5 s after ${signal}`));
    }, 5_000);
  });
  try {
    return await Promise.race([server.stop(signal), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const emulator = useExampleEmulator();
const running: HttpServerProcess[] = [];
async function start(extra: Record<string, string> = {}): Promise<HttpServerProcess> {
  const server = await startHttpBin("example-mcp", exampleEnv(emulator, extra));
  running.push(server);
  return server;
}

afterAll(async () => {
  for (const server of running) server.child.kill("SIGKILL");
});

describe("without a token", () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await start();
  });

  it("binds 127.0.0.1 by default and serves tools/list and calls over streamable HTTP", async () => {
    const url = new URL(server.url);
    expect(url.hostname).toBe("127.0.0.1");
    expect(url.pathname).toBe("/mcp");

    const conn = await connectHttp(server.url);
    try {
      const { tools } = await conn.client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("example_search_users");
      const { text, isError } = textOf(
        await conn.client.callTool({ name: "example_search_users", arguments: { query: "chen", limit: 2 } }),
      );
      expect(isError).toBe(false);
      expect(text.split("\n")[0]).toBe("# User Search Results: 'chen'");
      expect(text).toMatch(/^Found \d+ users \(showing 2\)$/m);
    } finally {
      await conn.close();
    }
  });

  it("gives two clients at once their own sessions, each working on its own", async () => {
    const [a, b] = await Promise.all([connectHttp(server.url), connectHttp(server.url)]);
    try {
      const [fromA, fromB] = await Promise.all([
        a.client.callTool({ name: "example_search_users", arguments: { query: "chen" } }),
        b.client.callTool({ name: "example_search_users", arguments: { query: "anna" } }),
      ]);
      expect(textOf(fromA).text).toContain("# User Search Results: 'chen'");
      expect(textOf(fromB).text).toContain("# User Search Results: 'anna'");

      // Ending A's session (DELETE) leaves B's alone.
      await a.close();
      await expectSearchWorks(b.client);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("refuses a foreign Host header with 403 before any MCP processing", async () => {
    const evilInit = await raw(server.url, { headers: { host: "evil.example" }, body: initialize() });
    expect(evilInit.status).toBe(403);
    expect(evilInit.headers["mcp-session-id"]).toBeUndefined();
    expect(evilInit.body).not.toContain("serverInfo");

    // Even inside a real session, a call under a rebound Host name never reaches the remote.
    const sessionId = await rawSession(server.url);
    const headers = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
    const before = emulator.requests.count(SEARCH_PATH);
    const evilCall = await raw(server.url, {
      headers: { ...headers, host: `evil.example:${new URL(server.url).port}` },
      body: searchCall(2, "chen"),
    });
    expect(evilCall.status).toBe(403);
    expect(evilCall.body).not.toContain("User Search Results");
    expect(emulator.requests.count(SEARCH_PATH)).toBe(before);

    // The same call with the server's own Host goes through: the 403 was the Host, nothing else.
    const goodCall = await raw(server.url, { headers, body: searchCall(3, "chen") });
    expect(goodCall.status).toBe(200);
    expect(goodCall.body).toContain("User Search Results: 'chen'");
    expect(emulator.requests.count(SEARCH_PATH)).toBe(before + 1);
  });

  it("accepts Host localhost:<port>", async () => {
    const reply = await raw(server.url, {
      headers: { host: `localhost:${new URL(server.url).port}` },
      body: initialize(),
    });
    expect(reply.status).toBe(200);
    expect(reply.headers["mcp-session-id"]).toEqual(expect.any(String));
    expect(reply.body).toContain('"serverInfo"');
  });

  it("refuses a foreign Origin with 403 and accepts a local one (the MCP inspector's)", async () => {
    const evil = await raw(server.url, { headers: { origin: "https://evil.example" }, body: initialize() });
    expect(evil.status).toBe(403);
    expect(evil.headers["mcp-session-id"]).toBeUndefined();

    const inspector = await raw(server.url, {
      headers: { origin: "http://localhost:6274" },
      body: initialize(),
    });
    expect(inspector.status).toBe(200);
    expect(inspector.body).toContain('"serverInfo"');
  });

  it("answers 404 for an unknown path and for an unknown session id", async () => {
    const path = await raw(server.url, { path: "/not-mcp", body: initialize() });
    expect(path.status).toBe(404);

    const unknownSession = { "mcp-session-id": randomUUID(), "mcp-protocol-version": "2025-06-18" };
    const post = await raw(server.url, {
      headers: unknownSession,
      body: { jsonrpc: "2.0", id: 2, method: "tools/list" },
    });
    expect(post.status).toBe(404);
    const get = await raw(server.url, { method: "GET", headers: unknownSession });
    expect(get.status).toBe(404);
  });
});

describe("a 2026-07-28 request whose client goes away", () => {
  it("cancels the call: it ends in error, not with an answer the remote gives later", async () => {
    const server = await start();
    emulator.requests.clear();
    emulator.faults.inject({ kind: "delay", ms: 3_000 }, { path: SEARCH_PATH });
    const envelope = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const call = searchCall(7, "chen");
    const req = request(server.url, {
      method: "POST",
      headers: {
        accept: ACCEPT,
        "content-type": "application/json",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "example_search_users",
      },
    });
    req.on("error", () => undefined);
    req.end(JSON.stringify({ ...call, params: { ...call.params, _meta: envelope } }));
    // The remote holds the answer back; once it has the request, the client goes.
    await vi.waitFor(() => expect(emulator.requests.count()).toBeGreaterThan(0), {
      timeout: 5_000,
      interval: 20,
    });
    req.destroy();
    expect(await firstToolCallLine(server)).toMatchObject({ tool: "example_search_users", outcome: "error" });
  });
});

describe("with MCP_HTTP_TOKEN", () => {
  const token = `tok_${randomUUID().replaceAll("-", "")}`;
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await start({ MCP_HTTP_TOKEN: token });
  });

  it("answers 401 with www-authenticate when no token is sent, never echoing the token", async () => {
    const reply = await raw(server.url, { body: initialize() });
    expect(reply.status).toBe(401);
    expect(reply.headers["www-authenticate"]).toMatch(/^Bearer\b/);
    expect(reply.headers["mcp-session-id"]).toBeUndefined();
    expect(reply.body).not.toContain(token);
  });

  it("answers 401 to a wrong token, never echoing either token", async () => {
    const wrong = `${token}x`;
    const reply = await raw(server.url, {
      headers: { authorization: `Bearer ${wrong}` },
      body: initialize(),
    });
    expect(reply.status).toBe(401);
    expect(reply.body).not.toContain(token);
    expect(reply.body).not.toContain(wrong);
    await expect(connectHttp(server.url, wrong)).rejects.toThrow();
    await expect(connectHttp(server.url)).rejects.toThrow();
  });

  it("serves the SDK client that sends the right token", async () => {
    const conn = await connectHttp(server.url, token);
    try {
      await expectSearchWorks(conn.client);
    } finally {
      await conn.close();
    }
    expect(server.stderr()).not.toContain(token);
  });
});

describe("stopping", () => {
  it.each(["SIGTERM", "SIGINT"] as const)(
    "exits with code 0 on %s, even with a client connected, and frees the port",
    async (signal) => {
      const server = await start();
      const port = Number(new URL(server.url).port);
      const conn = await connectHttp(server.url);
      try {
        await conn.client.listTools();
        expect(await stopWithin(server, signal)).toBe(0);
        await refused(port);
      } finally {
        await conn.close();
      }
    },
  );

  it("exits with code 2 and names MCP_PORT when the port is taken", async () => {
    const blocker: Server = createServer();
    blocker.listen(0, "127.0.0.1");
    await once(blocker, "listening");
    const port = (blocker.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, [binPath("example-mcp")], {
        env: {
          PATH: process.env.PATH ?? "",
          NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "",
          ...exampleEnv(emulator, { MCP_TRANSPORT: "http", MCP_PORT: String(port) }),
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      const [code] = await once(child, "close");
      clearTimeout(timer);
      expect(code).toBe(2);
      const lines = stderr.trimEnd().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain("MCP_PORT");
      expect(lines[0]).toContain(String(port));
      expect(stderr).not.toContain(emulator.apiKey);
    } finally {
      blocker.close();
    }
  });
});

/** A GET event stream of a session, held open until `close`; resolves once the server answered it. */
function openStream(url: string, sessionId: string): Promise<{ status: number; close(): void }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({
      host: "127.0.0.1",
      port: Number(target.port),
      method: "GET",
      path: target.pathname,
      headers: {
        host: target.host,
        accept: "text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-06-18",
      },
      agent: false,
    });
    req.on("error", () => undefined);
    req.on("response", (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
    });
    req.setTimeout(10_000, () => reject(new Error("no answer to GET within 10 s")));
    req.end();
  });
}

const sessionHeaders = (sessionId: string) => ({
  "mcp-session-id": sessionId,
  "mcp-protocol-version": "2025-06-18",
});
const listTools = (url: string, sessionId: string) =>
  raw(url, { headers: sessionHeaders(sessionId), body: { jsonrpc: "2.0", id: 9, method: "tools/list" } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the session cap (MCP_MAX_SESSIONS)", () => {
  it("makes room for a new client by closing the least recently used idle session", async () => {
    const server = await start({ MCP_MAX_SESSIONS: "2" });
    const first = await rawSession(server.url);
    const second = await rawSession(server.url);
    expect((await listTools(server.url, first)).status).toBe(200); // first is now the more recent
    const third = await rawSession(server.url);

    expect((await listTools(server.url, second)).status).toBe(404);
    expect((await listTools(server.url, first)).status).toBe(200);
    expect((await listTools(server.url, third)).status).toBe(200);
  });

  it("refuses a new client with 503 and a clear JSON-RPC error when every session is busy", async () => {
    const server = await start({ MCP_MAX_SESSIONS: "1" });
    const busy = await rawSession(server.url);
    const stream = await openStream(server.url, busy);
    expect(stream.status).toBe(200);
    try {
      const refused = await raw(server.url, { body: initialize() });
      expect(refused.status).toBe(503);
      expect(refused.headers["mcp-session-id"]).toBeUndefined();
      expect(JSON.parse(refused.body)).toEqual({
        jsonrpc: "2.0",
        error: {
          code: -32000,
          message: "Too many sessions: all 1 are in use (MCP_MAX_SESSIONS); try again later",
        },
        id: null,
      });
      // The busy session was left alone.
      expect((await listTools(server.url, busy)).status).toBe(200);
    } finally {
      stream.close();
    }
    // Its stream closed, it is idle again, and gives way to the next client.
    for (let i = 0; i < 50; i++) {
      const reply = await raw(server.url, { body: initialize() });
      if (reply.status === 200) return;
      await sleep(20);
    }
    throw new Error("the session stayed busy after its stream closed");
  });
});

describe("idle sessions (MCP_SESSION_IDLE_TIMEOUT) and activity", () => {
  it("keeps a session whose GET event stream is open, while an idle one is closed", async () => {
    const server = await start({ MCP_SESSION_IDLE_TIMEOUT: "1" });
    const listening = await rawSession(server.url);
    const idle = await rawSession(server.url);
    const stream = await openStream(server.url, listening);
    try {
      await sleep(2_500); // more than the timeout plus one sweep
      expect((await listTools(server.url, idle)).status).toBe(404);
      expect((await listTools(server.url, listening)).status).toBe(200);
    } finally {
      stream.close();
    }
  });

  it("keeps a session whose call waits on the remote longer than the idle timeout, and answers it", async () => {
    const server = await start({ MCP_SESSION_IDLE_TIMEOUT: "1" });
    const sessionId = await rawSession(server.url);
    emulator.faults.inject({ kind: "delay", ms: 3_000 }, { path: SEARCH_PATH });
    const reply = await raw(server.url, { headers: sessionHeaders(sessionId), body: searchCall(5, "chen") });
    expect(reply.status).toBe(200);
    expect(reply.body).toContain("User Search Results: 'chen'");
    expect((await listTools(server.url, sessionId)).status).toBe(200);
  });
});
