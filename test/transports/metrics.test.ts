// The operator view, through the built bin over real HTTP and real MCP clients against the example
// emulator: GET /metrics counts calls, error kinds, remote requests, 429s and rate waits in Prometheus
// text format, with no argument, id, credential or address in it; it is guarded by a token (or served
// on loopback only); and each tool call is one JSON line on stderr that never holds an argument.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { metricsText } from "../../packages/lab-mcp/src/core/ops/metrics.js";
import { ConfigError } from "../../packages/lab-mcp/src/core/start/config.js";
import { loadSettings } from "../../packages/lab-mcp/src/core/start/run.js";
import { exampleService } from "../../packages/lab-mcp/src/services/example/index.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import {
  connectHttp,
  connectModernHttp,
  connectModernInMemory,
  connectStdio,
  firstToolCallLine,
  type HttpServerProcess,
  startHttpBin,
  textOf,
} from "../support/clients.js";
import { exampleEnv, useExampleEmulator, useLabdataEmulator } from "../support/emulator.js";
import { freePort } from "../support/ports.js";
import { parsePrometheusText, type Sample, sampleValue } from "../support/prometheus.js";
import { probe } from "../support/raw-http.js";

/** One raw exchange with /metrics or /mcp, headers exactly as given (a scraper sets Host to the replica's IP). */
const get = (url: string, path: string, headers: Record<string, string> = {}, method = "GET") =>
  probe(url, path, { method, headers });

const SEARCH = "example_search_users";
const calls = (samples: Sample[], outcome: string) =>
  sampleValue(samples, "labmcp_tool_calls_total", { server: "example_mcp", tool: SEARCH, outcome });
const remote = (samples: Sample[], statusClass: string) =>
  sampleValue(samples, "labmcp_remote_requests_total", {
    service: "example",
    tool: SEARCH,
    status_class: statusClass,
  });

const emulator = useExampleEmulator();
/** Where the emulator's users live, for faults aimed at the tool's requests. */
const usersPath = () => `${new URL(emulator.url).pathname}/users`;

describe("the built bin over HTTP with MCP_HTTP_TOKEN", () => {
  const token = randomBytes(32).toString("hex");
  // Distinctive strings: if one shows up in /metrics or the log, it came from the call's arguments.
  const secretQuery = `sk_live_${randomBytes(12).toString("hex")}`;
  let server: HttpServerProcess;
  beforeAll(async () => {
    emulator.faults.clear();
    server = await startHttpBin("example-mcp", exampleEnv(emulator, { MCP_HTTP_TOKEN: token }));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const scrape = async (): Promise<{ text: string; samples: Sample[] }> => {
    const reply = await get(server.url, "/metrics", { authorization: `Bearer ${token}` });
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    return { text: reply.body, samples: parsePrometheusText(reply.body) };
  };

  it("refuses /metrics without the token or with another, and serves it with the token to any Host", async () => {
    const none = await get(server.url, "/metrics");
    expect(none.status).toBe(401);
    expect(none.headers["www-authenticate"]).toBe('Bearer realm="metrics"');
    expect(none.body).not.toContain("labmcp_");
    const wrong = await get(server.url, "/metrics", { authorization: `Bearer ${"x".repeat(64)}` });
    expect(wrong.status).toBe(401);
    const byIp = await get(server.url, "/metrics", {
      host: "10.0.3.7:8080",
      authorization: `Bearer ${token}`,
    });
    expect(byIp.status).toBe(200);
    expect(byIp.headers["cache-control"]).toBe("no-store");
    const foreign = await get(server.url, "/metrics", {
      authorization: `Bearer ${token}`,
      origin: "https://evil.example",
    });
    expect(foreign.status).toBe(403);
    const post = await get(server.url, "/metrics", { authorization: `Bearer ${token}` }, "POST");
    expect(post.status).toBe(405);
  });

  it("counts calls, error kinds, remote requests, a 429, and both kinds of rate wait", async () => {
    const before = (await scrape()).samples;
    expect(calls(before, "ok")).toBe(0);
    // The process's own numbers are there too (collectDefaultMetrics).
    expect(sampleValue(before, "labmcp_process_cpu_user_seconds_total")).toBeGreaterThan(0);

    const modern = await connectModernHttp(server.url, { token });
    const legacy = await connectHttp(server.url, token);
    try {
      const search = async (query: string) =>
        textOf(await modern.client.callTool({ name: SEARCH, arguments: { query } }));
      expect((await search("chen")).isError).toBe(false);
      // A 2025-11-25 session's call counts alike.
      const viaSession = await legacy.client.callTool({ name: SEARCH, arguments: { query: "chen" } });
      expect(textOf(viaSession).isError).toBe(false);

      emulator.faults.inject({ kind: "status", status: 404 }, { path: usersPath() });
      expect(await search(secretQuery)).toEqual({
        text: "Error: Resource not found. Please check the ID is correct.",
        isError: true,
      });
      // Refused before any remote request.
      expect((await search("x")).isError).toBe(true);
      // No answer at all: the connection drops, and again when the request is sent once more.
      emulator.faults.inject({ kind: "drop" }, { path: usersPath(), times: 2 });
      expect((await search("chen")).text).toBe("Error: Unexpected error occurred: ConnectionError");
      const unknown = await modern.client.callTool({ name: `example_${secretQuery}`, arguments: {} });
      expect(textOf(unknown).isError).toBe(true);

      // A 429 with Retry-After: the client waits, asks again and gets the answer.
      emulator.faults.inject(
        { kind: "status", status: 429, headers: { "retry-after": "1" } },
        { path: usersPath() },
      );
      expect((await search("chen")).isError).toBe(false);

      // The remote says its window is spent for a second: the next call waits on the rate budget.
      emulator.faults.inject(
        {
          kind: "status",
          status: 200,
          body: JSON.stringify({ users: [], total: 0 }),
          headers: { "x-rate-limit-limit": "100", "x-rate-limit-remaining": "0", "x-rate-limit-reset": "1" },
        },
        { path: usersPath() },
      );
      expect((await search("nobody")).text).toBe("No users found matching 'nobody'");
      expect((await search("chen")).isError).toBe(false);
    } finally {
      await modern.close();
      await legacy.close();
    }

    const { text, samples } = await scrape();
    expect(calls(samples, "ok")).toBe(5);
    expect(calls(samples, "error")).toBe(3);
    const errors = (error: string, tool = SEARCH) =>
      sampleValue(samples, "labmcp_tool_errors_total", { server: "example_mcp", tool, error });
    expect(errors("not_found")).toBe(1);
    expect(errors("invalid_input")).toBe(1);
    expect(errors("unexpected")).toBe(1);
    expect(errors("unknown_tool", "unknown")).toBe(1);
    expect(
      sampleValue(samples, "labmcp_tool_call_duration_seconds_count", {
        server: "example_mcp",
        tool: SEARCH,
      }),
    ).toBe(8);

    // ok: 2 + the retried one + the two around the budget wait; 4xx: the 404 and the 429.
    expect(remote(samples, "2xx")).toBe(5);
    expect(remote(samples, "4xx")).toBe(2);
    expect(remote(samples, "network")).toBe(1);
    expect(
      sampleValue(samples, "labmcp_remote_rate_limited_total", { service: "example", tool: SEARCH }),
    ).toBe(1);
    const waits = (reason: string) =>
      sampleValue(samples, "labmcp_rate_waits_total", { service: "example", tool: SEARCH, reason });
    const waited = (reason: string) =>
      sampleValue(samples, "labmcp_rate_wait_seconds_total", { service: "example", tool: SEARCH, reason });
    expect(waits("retry_after")).toBe(1);
    expect(waited("retry_after")).toBeGreaterThanOrEqual(0.9);
    expect(waits("budget")).toBeGreaterThanOrEqual(1);
    expect(waited("budget")).toBeGreaterThan(0);

    // No argument, credential, address or record of the remote's in any label or value.
    for (const secret of [
      secretQuery,
      token,
      emulator.apiKey,
      new URL(emulator.url).host,
      "chen",
      "usr_",
      "@",
    ]) {
      expect(text).not.toContain(secret);
    }
    const labelValues = new Set(samples.flatMap((sample) => Object.values(sample.labels)));
    for (const value of labelValues) expect(value).toMatch(/^[a-z0-9_.:+-]*$/i);
  });

  it("logs each call as one JSON line on stderr, with exactly the documented fields and no argument", () => {
    const lines = server
      .stderr()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const toolCalls = lines.filter((line) => line.event === "tool_call");
    expect(toolCalls).toHaveLength(9);
    for (const line of toolCalls) {
      const keys = ["time", "level", "event", "server", "tool", "duration_ms", "outcome", "subject"];
      if (line.outcome === "error") keys.push("error");
      expect(Object.keys(line).sort()).toEqual(keys.sort());
      expect(new Date(line.time as string).toISOString()).toBe(line.time);
      expect(line.level).toBe("info");
      expect(line.server).toBe("example_mcp");
      expect(Number.isInteger(line.duration_ms) && (line.duration_ms as number) >= 0).toBe(true);
      expect(line.subject).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(toolCalls.map((line) => [line.tool, line.outcome, line.error ?? ""])).toContainEqual([
      SEARCH,
      "error",
      "not_found",
    ]);
    // The token's holder (stateless calls) is one subject; the 2025 session another.
    expect(new Set(toolCalls.map((line) => line.subject)).size).toBe(2);
    const stderr = server.stderr();
    for (const secret of [secretQuery, token, emulator.apiKey, "token-holder", "chen"]) {
      expect(stderr).not.toContain(secret);
    }
  });
});

describe("/metrics without a token", () => {
  let server: HttpServerProcess;
  let metricsUrl: string;
  beforeAll(async () => {
    emulator.faults.clear();
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}`;
    server = await startHttpBin(
      "example-mcp",
      exampleEnv(emulator, { MCP_LOG_CALLS: "false", MCP_METRICS_LISTEN: `127.0.0.1:${port}` }),
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("is never served on the MCP port, whatever the Host (a same-host proxy forwards the public one)", async () => {
    for (const host of [undefined, "127.0.0.1", "localhost", "mcp.example.org"]) {
      const reply = await get(server.url, "/metrics", host ? { host } : {});
      expect(reply.status, host).toBe(403);
      expect(JSON.parse(reply.body)).toEqual({
        error:
          "Forbidden: without MCP_METRICS_TOKEN, /metrics is not served on this port; set MCP_METRICS_LISTEN to a loopback host:port for a listener of its own",
      });
    }
  });

  it("answers on the MCP_METRICS_LISTEN listener to loopback Host names only, and MCP_LOG_CALLS=false silences the call log", async () => {
    const client = await connectModernHttp(server.url);
    try {
      const result = await client.client.callTool({ name: SEARCH, arguments: { query: "chen" } });
      expect(textOf(result).isError).toBe(false);
    } finally {
      await client.close();
    }
    const local = await get(metricsUrl, "/metrics");
    expect(local.status).toBe(200);
    expect(calls(parsePrometheusText(local.body), "ok")).toBe(1);
    // A DNS-rebinding page reaches 127.0.0.1 under its own name.
    const rebound = await get(metricsUrl, "/metrics", { host: "evil.example" });
    expect(rebound.status).toBe(403);
    expect(rebound.body).not.toContain("labmcp_");
    const page = await get(metricsUrl, "/metrics", { origin: "http://127.0.0.1:1" });
    expect(page.status).toBe(403);
    expect((await get(metricsUrl, "/mcp", {}, "POST")).status).toBe(404);
    expect(server.stderr()).not.toContain("tool_call");
  });

  it("MCP_METRICS_LISTEN is a loopback host:port, over HTTP only", () => {
    const env = { ...exampleEnv(emulator), MCP_TRANSPORT: "http" };
    const loaded = loadSettings(exampleService, [], { ...env, MCP_METRICS_LISTEN: "[::1]:9464" });
    expect(loaded.help ? undefined : loaded.core.metricsListen).toEqual({ host: "::1", port: 9464 });
    expect(() => loadSettings(exampleService, [], { ...env, MCP_METRICS_LISTEN: "0.0.0.0:9464" })).toThrow(
      "MCP_METRICS_LISTEN must be a loopback address (127.0.0.1, ::1 or localhost), not '0.0.0.0': /metrics without a token is for this machine only",
    );
    expect(() => loadSettings(exampleService, [], { ...env, MCP_METRICS_LISTEN: "9464" })).toThrow(
      "MCP_METRICS_LISTEN must be a loopback host:port such as 127.0.0.1:9464, not '9464'",
    );
    expect(() =>
      loadSettings(exampleService, [], { ...exampleEnv(emulator), MCP_METRICS_LISTEN: "127.0.0.1:9464" }),
    ).toThrow(/MCP_METRICS_LISTEN is set but MCP_TRANSPORT is stdio/);
  });
});

describe("MCP_METRICS_TOKEN", () => {
  const token = randomBytes(32).toString("hex");
  const metricsToken = randomBytes(32).toString("hex");
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startHttpBin(
      "example-mcp",
      exampleEnv(emulator, { MCP_HTTP_TOKEN: token, MCP_METRICS_TOKEN: metricsToken }),
    );
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("opens /metrics (beside MCP_HTTP_TOKEN) and nothing else", async () => {
    expect((await get(server.url, "/metrics", { authorization: `Bearer ${metricsToken}` })).status).toBe(200);
    expect((await get(server.url, "/metrics", { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await get(server.url, "/metrics")).status).toBe(401);
    const mcp = await get(server.url, "/mcp", { authorization: `Bearer ${metricsToken}` }, "POST");
    expect(mcp.status).toBe(401);
  });

  it("is refused when too short, or over stdio", () => {
    const env = exampleEnv(emulator);
    expect(() =>
      loadSettings(exampleService, [], { ...env, MCP_TRANSPORT: "http", MCP_METRICS_TOKEN: "short" }),
    ).toThrow(ConfigError);
    expect(() =>
      loadSettings(exampleService, [], { ...env, MCP_TRANSPORT: "http", MCP_METRICS_TOKEN: "short" }),
    ).toThrow(/MCP_METRICS_TOKEN is too short/);
    expect(() => loadSettings(exampleService, [], { ...env, MCP_METRICS_TOKEN: metricsToken })).toThrow(
      /MCP_METRICS_TOKEN is set but MCP_TRANSPORT is stdio/,
    );
  });
});

describe("the call log over stdio", () => {
  const query = `q_${randomBytes(8).toString("hex")}`;

  it("is off by default: stderr is the client's log of its server", async () => {
    const client = await connectStdio("example-mcp", exampleEnv(emulator));
    try {
      await client.client.callTool({ name: SEARCH, arguments: { query } });
    } finally {
      await client.close();
    }
    expect(client.stderr()).not.toContain("tool_call");
  });

  it("with MCP_LOG_CALLS=true, one line per call on stderr, naming no subject", async () => {
    const client = await connectStdio("example-mcp", exampleEnv(emulator, { MCP_LOG_CALLS: "true" }));
    try {
      await client.client.callTool({ name: SEARCH, arguments: { query } });
    } finally {
      await client.close();
    }
    const lines = client
      .stderr()
      .split("\n")
      .filter((line) => line.includes('"tool_call"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ event: "tool_call", tool: SEARCH, outcome: "ok" });
    expect(lines[0]).not.toHaveProperty("subject");
    expect(client.stderr()).not.toContain(query);
  });
});

describe("the subject hash across a fleet", () => {
  const token = randomBytes(32).toString("hex");
  const stateKey = randomBytes(32).toString("hex");
  const servers: HttpServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  const subjectOf = async (env: Record<string, string>): Promise<unknown> => {
    const server = await startHttpBin("example-mcp", exampleEnv(emulator, { MCP_HTTP_TOKEN: token, ...env }));
    servers.push(server);
    const client = await connectModernHttp(server.url, { token });
    try {
      await client.client.callTool({ name: SEARCH, arguments: { query: "chen" } });
    } finally {
      await client.close();
    }
    return (await firstToolCallLine(server)).subject;
  };

  it("names one caller alike on every replica with the same MCP_STATE_KEY, and otherwise not", async () => {
    const first = await subjectOf({ MCP_STATE_KEY: stateKey });
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    expect(await subjectOf({ MCP_STATE_KEY: stateKey })).toBe(first);
    expect(await subjectOf({})).not.toBe(first);
  });
});

describe("in this process: a call that asks for a key, and a resource read", () => {
  const labdata = useLabdataEmulator();

  const secretId = `seq_${randomBytes(8).toString("hex")}`;
  const scrapeHere = async () => parsePrometheusText((await metricsText()).text);
  const currentUserCalls = (samples: Sample[], outcome: string) =>
    sampleValue(samples, "labmcp_tool_calls_total", {
      server: "labdata_mcp",
      tool: "labdata_get_current_user",
      outcome,
    });
  const resourceRequests = (samples: Sample[]) =>
    sampleValue(samples, "labmcp_remote_requests_total", {
      service: "labdata",
      tool: "resource:current_user",
      status_class: "2xx",
    });

  it("counts the round that opens a page as input_required, a resource read under its name, and a missing id as not_found without the id", async () => {
    const before = await scrapeHere();
    const env = {
      LABDATA_BASE_URL: labdata.demo.baseUrl,
      LABDATA_CREDENTIALS_FILE: join(mkdtempSync(join(tmpdir(), "labdata-creds-")), "labdata.json"),
    };
    const connection = await connectModernInMemory(labdataService, env, { elicitation: { url: {} } });
    connection.client.setRequestHandler("elicitation/create", async (request) => {
      const { url } = request.params as { url: string };
      await fetch(url, { method: "POST", body: new URLSearchParams({ secret: labdata.demo.user.apiKey }) });
      return { action: "accept" };
    });
    try {
      const result = await connection.client.callTool({ name: "labdata_get_current_user", arguments: {} });
      expect(textOf(result).isError).toBe(false);
      const { contents } = await connection.client.readResource({ uri: "labdata://users/me" });
      expect(contents).toHaveLength(1);
      const missing = await connection.client.callTool({
        name: "labdata_get_entity",
        arguments: { id: secretId },
      });
      expect(textOf(missing).text).toBe("Error: Resource not found. Please check the ID is correct.");
    } finally {
      await connection.close();
    }
    const after = await scrapeHere();
    expect(currentUserCalls(after, "input_required") - currentUserCalls(before, "input_required")).toBe(1);
    expect(currentUserCalls(after, "ok") - currentUserCalls(before, "ok")).toBe(1);
    expect(resourceRequests(after) - resourceRequests(before)).toBeGreaterThanOrEqual(1);
    const text = (await metricsText()).text;
    expect(
      sampleValue(after, "labmcp_tool_errors_total", {
        server: "labdata_mcp",
        tool: "labdata_get_entity",
        error: "not_found",
      }),
    ).toBeGreaterThanOrEqual(1);
    for (const secret of [
      secretId,
      labdata.demo.user.apiKey,
      labdata.demo.user.name,
      new URL(labdata.demo.baseUrl).host,
    ]) {
      expect(text).not.toContain(secret);
    }
  });
});
