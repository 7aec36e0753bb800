// What every conversation pays before its first question: the tools each server lists and their o200k
// tokens (the JSON of the tools array, as the bench counts them), by default and with every toolset.
// The budget, not today's count: a server's default surface may grow to it, and a tool or description
// that would break it fails here first.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { connectInMemory } from "../support/clients.js";
import { ALL_SERVICES } from "../support/services.js";

/**
 * The budget of the tool servers an agent installs together (labdata_mcp and protocols_mcp): a tool at
 * most 450 tokens; each server's default surface at most 25 tools, and both defaults together at most
 * 10,000 tokens; every toolset of both at most 40 tools and 15,000 tokens.
 */
const BUDGET = {
  toolTokens: 450,
  defaultToolsPerServer: 25,
  defaultTokens: 10_000,
  allTools: 40,
  allTokens: 15_000,
};

const SERVERS = ["labdata", "protocols"].map((id) => {
  const service = ALL_SERVICES.find(({ definition }) => definition.id === id);
  if (!service) throw new Error(`${id} is not among the services`);
  return service;
});

/** A server's tools/list: its default surface (MCP_TOOLSETS unset) or every toolset ("all"). */
async function listed(
  { definition, env }: (typeof SERVERS)[number],
  surface: "default" | "all",
): Promise<Tool[]> {
  const { MCP_TOOLSETS: _all, ...settings } = env;
  const connection = await connectInMemory(
    definition,
    surface === "all" ? { ...settings, MCP_TOOLSETS: "all" } : settings,
  );
  try {
    return (await connection.client.listTools()).tools;
  } finally {
    await connection.close();
  }
}

const tokens = (value: unknown) => countTokens(JSON.stringify(value));
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe("the tool servers' surface, within its budget", () => {
  it(`lists at most ${BUDGET.defaultToolsPerServer} tools per server and ${BUDGET.defaultTokens} tokens by default`, async () => {
    const defaults = await Promise.all(SERVERS.map((server) => listed(server, "default")));
    for (const [i, tools] of defaults.entries()) {
      expect(tools.length, SERVERS[i]?.definition.serverName).toBeLessThanOrEqual(
        BUDGET.defaultToolsPerServer,
      );
    }
    expect(sum(defaults.map(tokens))).toBeLessThanOrEqual(BUDGET.defaultTokens);
  });

  it(`lists at most ${BUDGET.allTools} tools and ${BUDGET.allTokens} tokens with every toolset, no tool over ${BUDGET.toolTokens}`, async () => {
    const each = await Promise.all(SERVERS.map((server) => listed(server, "all")));
    const all = each.flat();
    const heavy = all
      .filter((tool) => tokens(tool) > BUDGET.toolTokens)
      .map((tool) => `${tool.name}: ${tokens(tool)}`);
    expect(heavy, "tools over the per-tool ceiling").toEqual([]);
    expect(all.length).toBeLessThanOrEqual(BUDGET.allTools);
    expect(sum(each.map(tokens))).toBeLessThanOrEqual(BUDGET.allTokens);
  });
});
