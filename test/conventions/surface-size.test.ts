// What every conversation pays before its first question (issue 26): how many tools labdata_mcp lists
// by default and with MCP_TOOLSETS=all, and their o200k tokens (the JSON of the tools array, as the
// bench counts them). Counts, not timings: a tool added to the default set, or a description that
// grows, fails here first.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { connectInMemory } from "../support/clients.js";

const ENV = { LABDATA_BASE_URL: "https://127.0.0.1:1/acme", LABDATA_API_KEY: "unused" };

/**
 * Issue 26's targets: a tool at most 450 tokens; labdata_mcp and protocols_mcp together at most 8,000
 * by default and 15,000 with MCP_TOOLSETS=all (bench/context-cost.bench.mjs). labdata_mcp's share, as
 * measured on 2026-11-28 (4,878 and 8,549) with a little margin, plus the two warehouse tools (issue 35,
 * on by default: 739 tokens; measured 5,615 and 9,286); protocols_mcp's is held in
 * protocols-surface-size.test.ts. Lower these as the schemas shrink, never raise them.
 */
const CEILINGS = {
  defaultTools: 16,
  allTools: 26,
  toolTokens: 450,
  defaultTokens: 5_700,
  allTokens: 9_350,
};

async function listed(extra: Record<string, string>): Promise<Tool[]> {
  const connection = await connectInMemory(labdataService, { ...ENV, ...extra });
  try {
    return (await connection.client.listTools()).tools;
  } finally {
    await connection.close();
  }
}

const tokens = (value: unknown) => countTokens(JSON.stringify(value));

describe("labdata_mcp's tools/list", () => {
  it(`lists at most ${CEILINGS.defaultTools} tools by default and ${CEILINGS.allTools} with every toolset`, async () => {
    expect((await listed({})).length).toBeLessThanOrEqual(CEILINGS.defaultTools);
    expect((await listed({ MCP_TOOLSETS: "all" })).length).toBeLessThanOrEqual(CEILINGS.allTools);
  });

  it("costs at most the ceiling's tokens, per tool and per surface", async () => {
    const all = await listed({ MCP_TOOLSETS: "all" });
    const heavy = all
      .filter((tool) => tokens(tool) > CEILINGS.toolTokens)
      .map((tool) => `${tool.name}: ${tokens(tool)}`);
    expect(heavy, "tools over the per-tool ceiling").toEqual([]);
    expect(tokens(await listed({}))).toBeLessThanOrEqual(CEILINGS.defaultTokens);
    expect(tokens(all)).toBeLessThanOrEqual(CEILINGS.allTokens);
  });
});
