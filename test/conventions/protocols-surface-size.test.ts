// What protocols_mcp costs an agent before its first question (issue 26): the o200k tokens of each
// tool as tools/list shows it, and the tool and token counts of its default toolsets and of all of
// them, so that a description or schema that grows past the budget fails here, not in the field.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { PROTOCOLS_DEFAULT_TOOLSETS } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { connectInMemory } from "../support/clients.js";
import { ALL_SERVICES } from "../support/services.js";

const PER_TOOL_TOKENS = 450;
const BUDGETS = {
  default: { tools: 9, tokens: 3000 },
  all: { tools: 14, tokens: 5500 },
};

const protocols = ALL_SERVICES.find(({ definition }) => definition.id === "protocols");
if (!protocols) throw new Error("protocols_mcp is not among the services");

/** The tools array of tools/list with these toolsets, and each tool's tokens. */
async function surface(toolsets: string[] | undefined) {
  const env = toolsets ? { ...protocols?.env, MCP_TOOLSETS: toolsets.join(",") } : protocols?.env;
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
    const all = await surface(undefined);
    const over = all.each.filter((tool) => tool.tokens > PER_TOOL_TOKENS);
    expect(over, "tools over the per-tool ceiling").toEqual([]);
    expect(all.each.length).toBeLessThanOrEqual(BUDGETS.all.tools);
    expect(all.tokens).toBeLessThanOrEqual(BUDGETS.all.tokens);
  });

  it("offers a default surface within its budget: reading, account and PDFs", async () => {
    const byDefault = await surface(PROTOCOLS_DEFAULT_TOOLSETS);
    expect(byDefault.each.map((tool) => tool.name).sort()).toEqual([
      "protocols_download_pdf",
      "protocols_get_profile",
      "protocols_get_protocol",
      "protocols_list_my_protocols",
      "protocols_search",
      "protocols_sign_in",
      "protocols_sign_out",
    ]);
    expect(byDefault.each.length).toBeLessThanOrEqual(BUDGETS.default.tools);
    expect(byDefault.tokens).toBeLessThanOrEqual(BUDGETS.default.tokens);
  });
});
