// What every conversation pays before its first question, and what it gets for it: each server's
// default surface (MCP_TOOLSETS unset) holds every read it has and no write, at most 25 tools a server,
// and both defaults together at most 10,000 o200k tokens of tools/list (the JSON of the tools array, as
// the bench counts them). A tool added to the default, or a description that grows, fails here first.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { WRITES_TOOLSET } from "../../packages/lab-mcp/src/core/server/toolsets.js";
import type { ServiceDefinition } from "../../packages/lab-mcp/src/core/start/service.js";
import { connectInMemory } from "../support/clients.js";
import { ALL_SERVICES } from "../support/services.js";

/**
 * The budget, not today's count. Per server, by default: sentry-mcp's rule of at most 25 tools. Both
 * defaults together (labdata_mcp and protocols_mcp, installed side by side): 10,000 o200k tokens. With
 * the writes too (every toolset): at most 30 tools a server and 15,000 tokens for both. A tool at most
 * 520 tokens: a list of the platform's records takes its filters (created, creator) and a json selection
 * (fields) beside its paging; labdata_list_entities, one tool for five lists, is the largest.
 */
const BUDGET = {
  toolsPerServer: 25,
  bothDefaultsTokens: 10_000,
  toolTokens: 520,
  toolsPerServerWithWrites: 30,
  bothAllTokens: 15_000,
};
/** Tools in the default that change something, but no lab data: a sign-in kept, a PDF saved to a file. */
const ACCOUNT_AND_FILES = [
  "labdata_sign_out",
  "protocols_sign_in",
  "protocols_sign_out",
  "protocols_download_pdf",
];

const tokens = (value: unknown) => countTokens(JSON.stringify(value));

function server(id: string) {
  const found = ALL_SERVICES.find(({ definition }) => definition.id === id);
  if (!found) throw new Error(`no server ${id}`);
  return found;
}

/** The tools/list of a server with its test settings (every tool allowed) but MCP_TOOLSETS as given. */
async function listed(id: string, toolsets: string | undefined): Promise<Tool[]> {
  const { definition, env } = server(id);
  const { MCP_TOOLSETS: _all, ...rest } = env;
  const connection = await connectInMemory(definition, toolsets ? { ...rest, MCP_TOOLSETS: toolsets } : rest);
  try {
    return (await connection.client.listTools()).tools;
  } finally {
    await connection.close();
  }
}

/** The tools of a server's toolsets other than writes that read (readOnlyHint): every read it has. */
function reads(definition: ServiceDefinition<unknown>): string[] {
  return definition.tools
    .filter((tool) => tool.annotations.readOnlyHint && tool.toolset !== WRITES_TOOLSET)
    .map((tool) => tool.name);
}

describe("the default surfaces", () => {
  it(`offer every read and no write, at most ${BUDGET.toolsPerServer} tools a server`, async () => {
    for (const id of ["labdata", "protocols"]) {
      const names = (await listed(id, undefined)).map((tool) => tool.name);
      expect(names.length, id).toBeLessThanOrEqual(BUDGET.toolsPerServer);
      expect(names, id).toEqual(expect.arrayContaining(reads(server(id).definition)));
      const writes = server(id)
        .definition.tools.filter((tool) => tool.toolset === WRITES_TOOLSET)
        .map((tool) => tool.name);
      expect(writes.length, `${id} has writes`).toBeGreaterThan(0);
      expect(
        names.filter((name) => writes.includes(name)),
        id,
      ).toEqual([]);
      const changing = (await listed(id, undefined)).filter((tool) => !tool.annotations?.readOnlyHint);
      expect(
        changing.map((tool) => tool.name).filter((name) => !ACCOUNT_AND_FILES.includes(name)),
        `${id}: tools that change something`,
      ).toEqual([]);
    }
  });

  it(`cost at most ${BUDGET.bothDefaultsTokens} tokens together`, async () => {
    const labdata = await listed("labdata", undefined);
    const protocols = await listed("protocols", undefined);
    expect(tokens(labdata) + tokens(protocols)).toBeLessThanOrEqual(BUDGET.bothDefaultsTokens);
  });

  it("offer the writes with MCP_TOOLSETS=default,writes, and keep every tool within its ceiling", async () => {
    for (const id of ["labdata", "protocols"]) {
      const withWrites = await listed(id, `default,${WRITES_TOOLSET}`);
      const all = await listed(id, "all");
      expect(withWrites.map((tool) => tool.name).sort(), id).toEqual(all.map((tool) => tool.name).sort());
      const heavy = all.filter((tool) => tokens(tool) > BUDGET.toolTokens).map((tool) => tool.name);
      expect(heavy, "tools over the per-tool ceiling").toEqual([]);
      expect(all.length, id).toBeLessThanOrEqual(BUDGET.toolsPerServerWithWrites);
    }
    const both = tokens(await listed("labdata", "all")) + tokens(await listed("protocols", "all"));
    expect(both).toBeLessThanOrEqual(BUDGET.bothAllTokens);
  });
});
