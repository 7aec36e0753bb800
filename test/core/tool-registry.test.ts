// What core's registry makes of a service's declarations, seen through a real MCP client: registration
// checks, generic inputs and trimming, toolsets and read-only mode, and tools/list (one order in both
// eras, cache hints). What a handler gets to work with is in tool-context.test.ts.
import { describe, expect, it } from "vitest";
import { createMcpServer } from "../../packages/lab-mcp/src/core/server/factory.js";
import type { ServiceDefinition } from "../../packages/lab-mcp/src/core/start/service.js";
import type { AnyTool } from "../../packages/lab-mcp/src/core/tool.js";
import { connectInMemory, connectModernInMemory, textOf } from "../support/clients.js";
import { probeService } from "./probe-service.js";

const NO_OPTIONS = { readOnly: false, toolsets: [] };
const toolNames = async (env: Record<string, string>) => {
  const connection = await connectInMemory(probeService, env);
  const { tools } = await connection.client.listTools();
  await connection.close();
  return tools.map((tool) => tool.name).sort();
};

describe("registration", () => {
  const withTool = (tool: Partial<AnyTool<unknown>>): ServiceDefinition<unknown> =>
    ({ ...probeService, tools: [{ ...probeService.tools[0], ...tool }] }) as ServiceDefinition<unknown>;

  it.each([
    ["probeEcho", /not snake_case/],
    ["other_echo", /does not start with "probe_"/],
    ["probe", /not snake_case/],
  ])("refuses the name %s", (name, why) => {
    expect(() => createMcpServer(withTool({ name }), new Map(), NO_OPTIONS)).toThrow(why);
  });

  it("refuses a tool with an annotation missing", () => {
    const annotations = {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    } as AnyTool<unknown>["annotations"];
    expect(() => createMcpServer(withTool({ annotations }), new Map(), NO_OPTIONS)).toThrow(/openWorldHint/);
  });

  it("refuses a tool without an output shape (its outputSchema)", () => {
    expect(() => createMcpServer(withTool({ output: undefined }), new Map(), NO_OPTIONS)).toThrow(
      /no output shape/,
    );
  });

  it("refuses a tool without a description", () => {
    expect(() => createMcpServer(withTool({ description: " " }), new Map(), NO_OPTIONS)).toThrow(
      /no description/,
    );
  });
});

describe("generic inputs", () => {
  it("trims every string, in lists too, and fills defaults", async () => {
    const connection = await connectInMemory(probeService, {});
    const result = textOf(
      await connection.client.callTool({
        name: "probe_echo",
        arguments: { text: "  pH 7.4 \n", tags: [" a ", "b  "] },
      }),
    );
    expect(JSON.parse(result.text)).toEqual({ text: "pH 7.4", tags: ["a", "b"] });
    const defaults = textOf(
      await connection.client.callTool({ name: "probe_echo", arguments: { text: "x" } }),
    );
    expect(JSON.parse(defaults.text)).toEqual({ text: "x", tags: [] });
    await connection.close();
  });

  it.each([
    [{ text: "x".repeat(101) }, /text: must be at most 100 characters/],
    [{ text: "x", count: 1001 }, /count: must be at most 1000/],
    [{ text: "x", count: -1 }, /count: must be at least 0/],
    [{ text: "x", tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, /tags: must have at most 10 items/],
    [{ text: "x", tags: ["ok", "  "] }, /tags\.1: must not be empty or whitespace only/],
    [{ text: "a\u0000b" }, /text: must not contain control characters/],
    [{ text: "two\nlines" }, /text: must not contain control characters/],
    [{ text: "x", tags: ["esc\u001b[31m"] }, /tags\.0: must not contain control characters/],
  ])("rejects %j", async (args, message) => {
    const connection = await connectInMemory(probeService, {});
    const result = textOf(await connection.client.callTool({ name: "probe_echo", arguments: args }));
    await connection.close();
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(message);
  });
});

describe("toolsets and read-only mode", () => {
  it("offers every tool but the destructive ones by default; MCP_ALLOW_DESTRUCTIVE adds those", async () => {
    expect(await toolNames({})).toEqual(["probe_echo", "probe_report", "probe_sign_in"]);
    expect(await toolNames({ MCP_ALLOW_DESTRUCTIVE: "true" })).toEqual([
      "probe_echo",
      "probe_report",
      "probe_sign_in",
      "probe_write_note",
    ]);
    // Read-only mode wins.
    expect(await toolNames({ MCP_ALLOW_DESTRUCTIVE: "true", MCP_READ_ONLY: "true" })).not.toContain(
      "probe_write_note",
    );
  });

  it("says why a destructive tool is not offered, when it is called", async () => {
    const connection = await connectInMemory(probeService, {});
    const result = textOf(
      await connection.client.callTool({ name: "probe_write_note", arguments: { name: "a", text: "b" } }),
    );
    await connection.close();
    expect(result).toEqual({
      isError: true,
      text:
        "Error: Tool probe_write_note deletes or replaces data, which this server offers only with " +
        "MCP_ALLOW_DESTRUCTIVE=true. Set it and restart the server to use it.",
    });
  });

  it("hides every tool that is not read-only in read-only mode", async () => {
    expect(await toolNames({ MCP_READ_ONLY: "true" })).toEqual([
      "probe_echo",
      "probe_report",
      "probe_sign_in",
    ]);
  });

  it("offers only the toolsets asked for", async () => {
    expect(await toolNames({ MCP_TOOLSETS: "writing", MCP_ALLOW_DESTRUCTIVE: "true" })).toEqual([
      "probe_write_note",
    ]);
  });

  it("keeps writes hidden in read-only mode even when their toolset is asked for", async () => {
    expect(await toolNames({ MCP_TOOLSETS: "writing,reading", MCP_READ_ONLY: "1" })).toEqual([
      "probe_echo",
      "probe_report",
      "probe_sign_in",
    ]);
  });

  it("refuses to run a hidden tool, saying why", async () => {
    const connection = await connectInMemory(probeService, { MCP_READ_ONLY: "true" });
    const result = textOf(
      await connection.client.callTool({ name: "probe_write_note", arguments: { name: "a", text: "b" } }),
    );
    await connection.close();
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/not enabled on this server \(read-only mode or toolsets\)/);
  });
});

describe("lists", () => {
  it("carries cache hints on tools/list and the resource lists for 2026-07-28 clients", async () => {
    const connection = await connectModernInMemory(probeService, {});
    const tools = await connection.client.listTools();
    const templates = await connection.client.listResourceTemplates();
    for (const result of [tools, templates] as Array<{ ttlMs?: number; cacheScope?: string }>) {
      expect(result.ttlMs).toBe(600_000);
      expect(result.cacheScope).toBe("public");
    }
    await connection.close();
  });

  it("lists the tools in one order, by name, identical in both eras", async () => {
    const modern = await connectModernInMemory(probeService, {});
    const legacy = await connectInMemory(probeService, {});
    const modernTools = (await modern.client.listTools()).tools;
    const legacyTools = (await legacy.client.listTools()).tools;
    const names = modernTools.map((tool) => tool.name);
    expect(names).toEqual([...names].sort());
    expect(names.length).toBeGreaterThan(2);
    expect(legacyTools).toEqual(modernTools);
    // Another process (here another server) lists byte for byte the same, for prompt caches.
    const other = await connectModernInMemory(probeService, {});
    expect(JSON.stringify((await other.client.listTools()).tools)).toBe(JSON.stringify(modernTools));
    await Promise.all([modern.close(), legacy.close(), other.close()]);
  });
});
