// Health and readiness of an HTTP replica, through real HTTP: GET /healthz and /readyz answer load
// balancers and orchestrators that probe by IP with no token; they reveal nothing, open nothing else,
// and /readyz says what the server's readiness check says.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Readiness } from "../../packages/lab-mcp/src/core/ops/health.js";
import { createServerFactory } from "../../packages/lab-mcp/src/core/server/factory.js";
import { prepare } from "../../packages/lab-mcp/src/core/start/run.js";
import { serveHttp } from "../../packages/lab-mcp/src/core/transport/http.js";
import type { RunningTransport } from "../../packages/lab-mcp/src/core/transport/running.js";
import { exampleService } from "../../packages/lab-mcp/src/services/example/index.js";
import { connectModernHttp, type HttpServerProcess, startHttpBin, textOf } from "../support/clients.js";
import { exampleEnv, useExampleEmulator } from "../support/emulator.js";
import { probe } from "../support/raw-http.js";

const emulator = useExampleEmulator();

describe("the built bin over HTTP, with MCP_HTTP_TOKEN", () => {
  const token = randomBytes(32).toString("hex");
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startHttpBin("example-mcp", exampleEnv(emulator, { MCP_HTTP_TOKEN: token }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers /healthz and /readyz with no token, whatever Host a prober sends", async () => {
    for (const host of [new URL(server.url).host, "10.0.3.7:8080"]) {
      const health = await probe(server.url, "/healthz", { headers: { host } });
      expect(health.status).toBe(200);
      expect(health.headers["content-type"]).toBe("application/json");
      expect(health.headers["cache-control"]).toBe("no-store");
      expect(JSON.parse(health.body)).toEqual({ status: "ok" });

      const ready = await probe(server.url, "/readyz", { headers: { host } });
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.body)).toEqual({ status: "ready" });
    }
    const head = await probe(server.url, "/healthz?verbose=1", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
  });

  it("opens nothing else: the MCP endpoint still wants the token and a loopback Host", async () => {
    const noToken = await probe(server.url, "/mcp", { method: "POST" });
    expect(noToken.status).toBe(401);
    const foreignHost = await probe(server.url, "/mcp", {
      method: "POST",
      headers: { host: "10.0.3.7:8080", authorization: `Bearer ${token}` },
    });
    expect(foreignHost.status).toBe(403);
    const otherPath = await probe(server.url, "/healthz/../mcp/x", { headers: { host: "10.0.3.7:8080" } });
    expect(otherPath.status).toBe(403);
  });

  it("refuses other methods and pages of other origins", async () => {
    const post = await probe(server.url, "/healthz", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
    const foreign = await probe(server.url, "/readyz", { headers: { origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);
    expect(foreign.body).not.toContain("ready");
    const local = await probe(server.url, "/healthz", { headers: { origin: "http://localhost:5173" } });
    expect(local.status).toBe(200);
  });
});

describe("serveHttp's readiness option", () => {
  let running: RunningTransport;
  let state: Readiness | Error = { ready: true };
  beforeAll(async () => {
    const prepared = prepare(exampleService, [], { ...exampleEnv(emulator), MCP_TRANSPORT: "http" });
    if (prepared.help) throw new Error("unexpected --help");
    running = await serveHttp(createServerFactory(exampleService, prepared.service, prepared.core), {
      host: "127.0.0.1",
      port: 0,
      readiness: async () => {
        if (state instanceof Error) throw state;
        return state;
      },
    });
  });
  afterAll(async () => {
    await running?.close();
  });

  it("answers 503 with the check's reason while not ready, and 200 again once ready", async () => {
    const url = running.url as string;
    state = { ready: false, reason: "shared state unreachable" };
    const notReady = await probe(url, "/readyz");
    expect(notReady.status).toBe(503);
    expect(JSON.parse(notReady.body)).toEqual({ status: "not ready", reason: "shared state unreachable" });
    // Alive all the same: /healthz is about the process, and the MCP endpoint still serves.
    expect((await probe(url, "/healthz")).status).toBe(200);
    const client = await connectModernHttp(url);
    try {
      const result = textOf(
        await client.client.callTool({ name: "example_search_users", arguments: { query: "chen" } }),
      );
      expect(result.isError).toBe(false);
    } finally {
      await client.close();
    }

    state = { ready: true };
    const ready = await probe(url, "/readyz");
    expect(ready.status).toBe(200);
    expect(JSON.parse(ready.body)).toEqual({ status: "ready" });
  });

  it("reads a failing check as not ready, without its message", async () => {
    state = new Error("connect ECONNREFUSED redis://:hunter2@10.0.0.9:6379");
    const failed = await probe(running.url as string, "/readyz");
    expect(failed.status).toBe(503);
    expect(JSON.parse(failed.body)).toEqual({ status: "not ready", reason: "the readiness check failed" });
    expect(failed.body).not.toContain("hunter2");
    state = { ready: true };
  });
});
