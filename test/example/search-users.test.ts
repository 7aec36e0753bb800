// example_search_users exactly as the conventions specify it, through a real MCP client against the
// HTTPS emulator: annotations, inputs, the remote request, both formats, paging and every error text.

import { setTimeout as delay } from "node:timers/promises";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ExampleEmulator } from "../../packages/emulators/src/example/index.js";
import { exampleService } from "../../packages/lab-mcp/src/services/example/index.js";
import { type Connected, connectInMemory, textOf, useInMemoryClient } from "../support/clients.js";
import { exampleEnv, useExampleEmulator } from "../support/emulator.js";

const SEARCH = "/api/users/search";
const emulator = useExampleEmulator();
const conn = useInMemoryClient(exampleService, () => exampleEnv(emulator, { MCP_REQUEST_TIMEOUT: "2" }));

const search = async (args: Record<string, unknown>, connection = conn) =>
  textOf(await connection.client.callTool({ name: "example_search_users", arguments: args }));

afterEach(() => {
  emulator.faults.clear();
  emulator.requests.clear();
});

describe("declaration", () => {
  it("is listed with the title and the five annotations of the conventions", async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["example_search_users"]);
    expect(tools[0]?.title).toBe("Search Example Users");
    expect(tools[0]?.annotations).toEqual({
      title: "Search Example Users",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
  });

  it("declares query, limit, offset and response_format with their bounds and defaults", async () => {
    const { tools } = await conn.client.listTools();
    const schema = tools[0]?.inputSchema as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(schema.required).toEqual(["query"]);
    expect(schema).toMatchObject({ additionalProperties: false });
    expect(schema.properties.query).toMatchObject({ type: "string", minLength: 2, maxLength: 200 });
    expect(schema.properties.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 20 });
    expect(schema.properties.offset).toMatchObject({ type: "integer", minimum: 0, default: 0 });
    expect(schema.properties.response_format).toMatchObject({
      enum: ["markdown", "json"],
      default: "markdown",
    });
  });
});

describe("remote request", () => {
  it("sends GET users/search with q, limit and offset, the query trimmed, the key as a Bearer token", async () => {
    const { isError } = await search({ query: "  chen \t", limit: 3, offset: 1 });
    expect(isError).toBe(false); // a wrong Authorization would have been a 401
    const [request] = emulator.requests.entries();
    expect(emulator.requests.count()).toBe(1);
    expect(request).toMatchObject({
      method: "GET",
      path: SEARCH,
      query: { q: "chen", limit: "3", offset: "1" },
    });
  });

  it("uses limit 20 and offset 0 when they are left out", async () => {
    await search({ query: "chen" });
    expect(emulator.requests.entries()[0]?.query).toEqual({ q: "chen", limit: "20", offset: "0" });
  });
});

describe("results", () => {
  let small: ExampleEmulator;
  let smallConn: Connected;
  beforeAll(async () => {
    const { testCa } = await import("../support/emulator.js");
    const { startExampleEmulator } = await import("../../packages/emulators/src/example/index.js");
    const { certPem, keyPem } = testCa();
    small = await startExampleEmulator({
      ca: { certPem, keyPem },
      users: [
        { id: "usr_1", name: "Ada Lovelace", email: "ada@lab.example", team: "Analytics" },
        { id: "usr_2", name: "Adam Smith", email: "adam@lab.example" },
        { id: "usr_3", name: "Grace Hopper", email: "grace@lab.example", team: "Compilers" },
      ],
    });
    smallConn = await connectInMemory(exampleService, exampleEnv(small));
  });
  afterAll(async () => {
    await smallConn.close();
    await small.close();
  });

  it("renders markdown: heading with the query, the count line, a heading per user, team only when present", async () => {
    const { text, isError } = await search({ query: "ada" }, smallConn);
    expect(isError).toBe(false);
    expect(text).toBe(
      [
        "# User Search Results: 'ada'",
        "",
        "Found 2 users (showing 2)",
        "",
        "## Ada Lovelace (usr_1)",
        "- **Email**: ada@lab.example",
        "- **Team**: Analytics",
        "",
        "## Adam Smith (usr_2)",
        "- **Email**: adam@lab.example",
      ].join("\n"),
    );
  });

  it("says where the next page starts when there is more", async () => {
    const { text } = await search({ query: "ada", limit: 1 }, smallConn);
    expect(text).toContain("Found 2 users (showing 1)");
    expect(text).toContain("## Ada Lovelace (usr_1)");
    expect(text).not.toContain("Adam Smith");
    expect(text).toMatch(/offset=1\b/);
  });

  it("renders json: indented, with total, count, offset, users, has_more and next_offset", async () => {
    const { text } = await search({ query: "ada", limit: 1, response_format: "json" }, smallConn);
    expect(text).toBe(
      JSON.stringify(
        {
          total: 2,
          count: 1,
          offset: 0,
          users: [{ id: "usr_1", name: "Ada Lovelace", email: "ada@lab.example", team: "Analytics" }],
          has_more: true,
          next_offset: 1,
        },
        null,
        2,
      ),
    );
  });

  it("ends paging with has_more false and next_offset null", async () => {
    const page = JSON.parse(
      (await search({ query: "ada", offset: 1, response_format: "json" }, smallConn)).text,
    );
    expect(page).toMatchObject({ total: 2, count: 1, offset: 1, has_more: false, next_offset: null });
    expect(page.users[0]).toEqual({ id: "usr_2", name: "Adam Smith", email: "adam@lab.example" });
  });

  it("answers the no-match text, in either format", async () => {
    expect(await search({ query: "zzz-nobody" }, smallConn)).toEqual({
      text: "No users found matching 'zzz-nobody'",
      isError: false,
    });
    expect((await search({ query: "zzz-nobody", response_format: "json" }, smallConn)).text).toBe(
      "No users found matching 'zzz-nobody'",
    );
  });

  it("says so when the offset is past the last match", async () => {
    const { text } = await search({ query: "ada", offset: 10 }, smallConn);
    expect(text).toContain("there are 2 matches");
  });

  it("pages through a large result set without gaps or repeats", async () => {
    const seen: string[] = [];
    let offset: number | null = 0;
    for (let pages = 0; offset !== null && pages < 20; pages++) {
      const page = JSON.parse(
        (await search({ query: "lab", limit: 7, offset, response_format: "json" })).text,
      );
      seen.push(...page.users.map((user: { id: string }) => user.id));
      offset = page.next_offset;
      if (offset === null) expect(seen.length).toBe(page.total);
    }
    expect(offset).toBeNull();
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThan(20);
  });
});

describe("invalid input: a tool error the model can act on, and no remote request", () => {
  const cases: Array<[string, Record<string, unknown>, RegExp]> = [
    ["missing query", {}, /query: is required/],
    ["one character", { query: "a" }, /query: must be at least 2 characters/],
    ["whitespace only", { query: "   \t " }, /query: must not be empty or whitespace only/],
    ["one character after trimming", { query: "  b  " }, /query: must be at least 2 characters/],
    ["201 characters", { query: "x".repeat(201) }, /query: must be at most 200 characters/],
    ["query not a string", { query: 42 }, /query: .*expected string/],
    ["limit 0", { query: "chen", limit: 0 }, /limit: must be at least 1/],
    ["limit 101", { query: "chen", limit: 101 }, /limit: must be at most 100/],
    ["limit not whole", { query: "chen", limit: 2.5 }, /limit: must be a whole number/],
    ["limit as text", { query: "chen", limit: "10" }, /limit: .*expected number/],
    ["negative offset", { query: "chen", offset: -1 }, /offset: must be at least 0/],
    ["unknown format", { query: "chen", response_format: "xml" }, /response_format: /],
    [
      "unknown field",
      { query: "chen", page: 2 },
      /unknown field 'page' \(allowed: query, limit, offset, response_format\)/,
    ],
  ];
  it.each(cases)("%s", async (_name, args, message) => {
    const { text, isError } = await search(args);
    expect(isError).toBe(true);
    expect(text).toMatch(/^Error: Invalid input for example_search_users: /);
    expect(text).toMatch(message);
    expect(text).toMatch(/Correct the arguments and call the tool again\.$/);
    expect(emulator.requests.count()).toBe(0);
  });

  it("names every problem of a call at once", async () => {
    const { text } = await search({ query: "", limit: 500, extra: true });
    expect(text).toMatch(/query: .*; limit: .*; unknown field 'extra'/);
    expect(emulator.requests.count()).toBe(0);
  });
});

describe("remote failures: the exact texts, and the server keeps serving", () => {
  const statusCases: Array<[number, string]> = [
    [401, "Error: Invalid API authentication"],
    [403, "Error: Permission denied. You don't have access to this resource."],
    [404, "Error: Resource not found. Please check the ID is correct."],
    [500, "Error: API request failed with status 500"],
    [502, "Error: API request failed with status 502"],
    [503, "Error: API request failed with status 503"],
    [400, "Error: API request failed with status 400"],
  ];
  it.each(statusCases)("remote %i", async (status, expected) => {
    emulator.faults.inject({ kind: "status", status }, { path: SEARCH });
    expect(await search({ query: "chen" })).toEqual({ text: expected, isError: true });
    expect((await search({ query: "chen" })).isError).toBe(false);
  });

  it("remote 429 that outlasts the retries", async () => {
    emulator.faults.inject(
      { kind: "status", status: 429, headers: { "retry-after": "0" } },
      { path: SEARCH, times: 10 },
    );
    expect(await search({ query: "chen" })).toEqual({
      text: "Error: Rate limit exceeded. Please wait before making more requests.",
      isError: true,
    });
    expect(emulator.requests.count()).toBe(4); // the first try and three retries
  });

  it("a real 401: a wrong API key", async () => {
    const wrong = await connectInMemory(
      exampleService,
      exampleEnv(emulator, { EXAMPLE_API_KEY: "ex_wrong_key" }),
    );
    try {
      expect(await search({ query: "chen" }, wrong)).toEqual({
        text: "Error: Invalid API authentication",
        isError: true,
      });
    } finally {
      await wrong.close();
    }
  });

  it("timeout", async () => {
    emulator.faults.inject({ kind: "delay", ms: 3_000 }, { path: SEARCH });
    expect(await search({ query: "chen" })).toEqual({
      text: "Error: Request timed out. Please try again.",
      isError: true,
    });
    expect((await search({ query: "chen" })).isError).toBe(false);
  });

  const exceptionCases: Array<[string, { kind: "drop" | "malformed" | "truncated" }, string]> = [
    ["dropped connection", { kind: "drop" }, "ConnectionError"],
    ["body cut short", { kind: "truncated" }, "ConnectionError"],
    ["body that is not JSON", { kind: "malformed" }, "InvalidResponseError"],
  ];
  it.each(exceptionCases)("%s", async (_name, fault, typeName) => {
    // Twice: a connection dropped before any answer is sent once more (core/http/remote-client.ts).
    emulator.faults.inject(fault, { path: SEARCH, times: fault.kind === "drop" ? 2 : 1 });
    expect(await search({ query: "chen" })).toEqual({
      text: `Error: Unexpected error occurred: ${typeName}`,
      isError: true,
    });
    expect((await search({ query: "chen" })).isError).toBe(false);
  });

  it("a JSON body of the wrong shape", async () => {
    emulator.faults.inject({ kind: "status", status: 200, body: '{"people": []}' }, { path: SEARCH });
    expect((await search({ query: "chen" })).text).toBe(
      "Error: Unexpected error occurred: InvalidResponseError",
    );
  });

  it("calls a tool that does not exist", async () => {
    const { text, isError } = textOf(
      await conn.client.callTool({ name: "example_delete_users", arguments: {} }),
    );
    expect(isError).toBe(true);
    expect(text).toMatch(/^Error: Tool example_delete_users does not exist/);
  });
});

describe("rate limits, progress and logs", () => {
  it("retries a 429 after Retry-After, reporting progress and an info log while it waits", async () => {
    emulator.faults.inject(
      { kind: "status", status: 429, headers: { "retry-after": "1" } },
      { path: SEARCH },
    );
    const logs: string[] = [];
    conn.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(`${notification.params.level}: ${JSON.stringify(notification.params.data)}`);
    });
    await conn.client.setLoggingLevel("info");
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = textOf(
      await conn.client.callTool({ name: "example_search_users", arguments: { query: "chen" } }, undefined, {
        onprogress: (update) => progress.push(update),
      }),
    );
    expect(result.isError).toBe(false);
    expect(result.text).toContain("# User Search Results: 'chen'");
    expect(emulator.requests.count()).toBe(2);
    expect(
      progress.some((update) => /Waiting \d+ s for the remote rate limit/.test(update.message ?? "")),
    ).toBe(true);
    expect(logs.some((line) => line.startsWith("info:") && line.includes("Waiting"))).toBe(true);
  });

  it("holds every concurrent call back after a 429, as one client sharing one limiter", async () => {
    emulator.faults.inject(
      { kind: "status", status: 429, headers: { "retry-after": "1" } },
      { path: SEARCH },
    );
    const first = search({ query: "chen" });
    for (let polls = 0; emulator.requests.count() === 0 && polls < 100; polls++) await delay(10);
    await delay(100); // the 429 has reached the client
    const others = await Promise.all([search({ query: "ada" }), search({ query: "lee" })]);
    expect((await first).isError).toBe(false);
    expect(others.every((result) => !result.isError)).toBe(true);
    const [limited, ...rest] = emulator.requests.entries();
    expect(rest.length).toBe(3);
    // Nobody asked again before Retry-After ran out, not even the calls that never saw the 429.
    for (const request of rest)
      expect(request.at.getTime() - (limited?.at.getTime() ?? 0)).toBeGreaterThanOrEqual(990);
  });

  it("sends debug logs only after logging/setLevel debug, and never the API key", async () => {
    const logs: Array<{ level: string; text: string }> = [];
    conn.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push({ level: notification.params.level, text: JSON.stringify(notification.params.data) });
    });
    await conn.client.setLoggingLevel("info");
    await search({ query: "chen" });
    expect(logs.filter((log) => log.level === "debug")).toEqual([]);

    await conn.client.setLoggingLevel("debug");
    await search({ query: "chen" });
    expect(logs.some((log) => log.level === "debug" && log.text.includes("/api/users/search -> 200"))).toBe(
      true,
    );

    await conn.client.setLoggingLevel("error");
    const before = logs.length;
    emulator.faults.inject({ kind: "status", status: 500 }, { path: SEARCH });
    await search({ query: "chen" });
    const after = logs.slice(before);
    expect(after.map((log) => log.level)).toEqual(["error"]);
    expect(after[0]?.text).toContain("example_search_users failed");
    expect(JSON.stringify(logs)).not.toContain(emulator.apiKey);
  });

  it("stops waiting for the remote when the client cancels the call", async () => {
    emulator.faults.inject({ kind: "delay", ms: 10_000 }, { path: SEARCH });
    const controller = new AbortController();
    const call = conn.client.callTool(
      { name: "example_search_users", arguments: { query: "chen" } },
      undefined,
      {
        signal: controller.signal,
      },
    );
    setTimeout(() => controller.abort("user pressed stop"), 200);
    await expect(call).rejects.toThrow();
    expect((await search({ query: "chen" })).isError).toBe(false);
  });
});

describe("resource example://users/search/{query}", () => {
  it("is listed as a template and reads the matches as the JSON envelope", async () => {
    const { resourceTemplates } = await conn.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      "example://users/search/{query}",
    ]);
    const { contents } = await conn.client.readResource({ uri: "example://users/search/chen" });
    const page = JSON.parse((contents[0] as { text: string }).text);
    expect(page).toMatchObject({ offset: 0, has_more: false, next_offset: null });
    expect(page.users.length).toBe(page.total);
    expect(emulator.requests.entries()[0]?.query).toEqual({ q: "chen", limit: "100", offset: "0" });
  });

  it("rejects a bad placeholder without a remote request", async () => {
    await expect(conn.client.readResource({ uri: "example://users/search/a" })).rejects.toThrow(
      /must be at least 2 characters/,
    );
    expect(emulator.requests.count()).toBe(0);
  });

  it("gives the exact texts for remote failures", async () => {
    emulator.faults.inject({ kind: "status", status: 403 }, { path: SEARCH });
    await expect(conn.client.readResource({ uri: "example://users/search/chen" })).rejects.toThrow(
      "Error: Permission denied. You don't have access to this resource.",
    );
  });
});
