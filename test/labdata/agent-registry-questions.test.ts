// Plays the agent for two questions about the registry, against the emulator through a real MCP client: it
// picks each tool by keywords of the descriptions in tools/list (never by name) and its arguments by
// the input schema, and must answer in one or two calls.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { textOf, useInMemoryClient } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv } from "../support/labdata.js";

const emulator = useLabdataEmulator();
const conn = useInMemoryClient(labdataService, () => apiKeyEnv(emulator.demo));
let tools: Tool[];
let calls = 0;

beforeAll(async () => {
  tools = (await conn.client.listTools()).tools;
});

/** The one read-only tool whose description holds every keyword (case-insensitive). */
function toolFor(...keywords: string[]): Tool {
  const matching = tools.filter(
    (tool) =>
      tool.annotations?.readOnlyHint === true &&
      keywords.every((word) => (tool.description ?? "").toLowerCase().includes(word.toLowerCase())),
  );
  expect(
    matching.map((tool) => tool.name),
    keywords.join(" + "),
  ).toHaveLength(1);
  return matching[0] as Tool;
}

/** The input the schema names for a value: the first property whose name holds `hint`. */
function argumentFor(tool: Tool, hint: string): string {
  const name = Object.keys(tool.inputSchema.properties ?? {}).find((property) => property.includes(hint));
  expect(name, `${tool.name} takes no '${hint}'`).toBeDefined();
  return name as string;
}

async function ask(tool: Tool, args: Record<string, unknown>) {
  calls++;
  const result = textOf(await conn.client.callTool({ name: tool.name, arguments: args }));
  expect(result.isError, result.text).toBe(false);
  return result.text;
}

describe("the agent answers from the descriptions alone", () => {
  it("'is there a registered plasmid with this insert?': one call", async () => {
    calls = 0;
    const insert = emulator.demo.registry.shRna3Insert;
    const tool = toolFor("insert", "bases", "registered plasmid");
    const answer = await ask(tool, { [argumentFor(tool, "bases")]: insert });
    expect(answer).toMatch(/pLKO-shRNA-3 \(seq_\w+\)\*\*: registered as PL09003/);
    expect(answer).toMatch(/matches at \d+\.\.\d+ \(forward\)/);
    expect(calls).toBe(1);
  });

  it("'where is the glycerol stock of pLKO-shRNA-3?': two calls", async () => {
    calls = 0;
    const search = toolFor("search", "every entity type", "by name, alias or registry id");
    const found = await ask(search, { [argumentFor(search, "query")]: "pLKO-shRNA-3" });
    const id = /\*\*pLKO-shRNA-3 \((\w+)\)\*\*/.exec(found)?.[1];
    expect(id).toBeDefined();
    const where = toolFor("where is it", "glycerol stock");
    const answer = await ask(where, { [argumentFor(where, "id")]: id });
    expect(answer).toContain("pLKO-shRNA-3 glycerol stock");
    expect(answer).toMatch(/position C4 of Glycerol stocks GS-1 .* → -80 °C Freezer A .* → Lab 3\.14/);
    expect(calls).toBe(2);
  });
});
