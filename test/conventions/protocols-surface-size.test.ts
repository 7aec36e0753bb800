// What protocols_mcp costs an agent before its first question (issue 26): the o200k tokens of each
// tool as tools/list shows it, and the tool and token counts of its default toolsets and of all of
// them, so that a description or schema that grows past the budget fails here, not in the field.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { connectInMemory } from "../support/clients.js";
import { ALL_SERVICES } from "../support/services.js";

/**
 * Issue 26's targets: a tool at most 450 tokens; with labdata_mcp, 15,000 with every toolset (both
 * defaults together: surface-size.test.ts). protocols_mcp's share as measured on 2026-11-29 with a little
 * margin: 2,437 by default (every read, issue 38), 4,302 for all 14 tools (signed in with OAuth and MCP_ALLOW_DESTRUCTIVE, as listed here;
 * the bench's 12 without the destructive ones weigh 3,730). Lower these as the schemas shrink, never
 * raise them.
 */
const PER_TOOL_TOKENS = 450;
const BUDGETS = {
  default: { tools: 8, tokens: 2_500 },
  all: { tools: 14, tokens: 4_500 },
};

const protocols = ALL_SERVICES.find(({ definition }) => definition.id === "protocols");
if (!protocols) throw new Error("protocols_mcp is not among the services");

/** The tools array of tools/list with these toolsets, and each tool's tokens. */
async function surface(toolsets: string[] | undefined) {
  const { MCP_TOOLSETS: _all, ...env } = protocols?.env ?? {};
  if (toolsets) env.MCP_TOOLSETS = toolsets.join(",");
  const connection = await connectInMemory(protocols?.definition as never, env ?? {});
  try {
    const { tools } = await connection.client.listTools();
    return {
      tokens: countTokens(JSON.stringify(tools)),
      each: tools.map((tool) => ({ name: tool.name, tokens: countTokens(JSON.stringify(tool)) })),
    };
  } finally {
    await connection.close();
  }
}

describe("protocols_mcp surface size", () => {
  it(`keeps every tool at most ${PER_TOOL_TOKENS} tokens and all of them within the budget`, async () => {
    const all = await surface(["all"]);
    const over = all.each.filter((tool) => tool.tokens > PER_TOOL_TOKENS);
    expect(over, "tools over the per-tool ceiling").toEqual([]);
    expect(all.each.length).toBeLessThanOrEqual(BUDGETS.all.tools);
    expect(all.tokens).toBeLessThanOrEqual(BUDGETS.all.tokens);
  });

  it("offers a default surface within its budget: every read, the account and PDFs, no write", async () => {
    const byDefault = await surface(undefined);
    expect(byDefault.each.map((tool) => tool.name).sort()).toEqual([
      "protocols_download_pdf",
      "protocols_get_profile",
      "protocols_get_protocol",
      "protocols_list_my_protocols",
      "protocols_list_workspaces",
      "protocols_search",
      "protocols_sign_in",
      "protocols_sign_out",
    ]);
    expect(byDefault.each.length).toBeLessThanOrEqual(BUDGETS.default.tools);
    expect(byDefault.tokens).toBeLessThanOrEqual(BUDGETS.default.tokens);
  });
});
