// Plays the agent for three questions about the lab, against the emulator's demo lab: it reads tools/list,
// picks each tool by keywords in the descriptions (never by name), fills the inputs from what their
// descriptions say, and must answer in one or two calls.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { textOf, useInMemoryClient } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv } from "../support/labdata.js";

const emulator = useLabdataEmulator();
const conn = useInMemoryClient(labdataService, () => apiKeyEnv(emulator.demo));
let tools: Tool[];

beforeAll(async () => {
  tools = (await conn.client.listTools()).tools;
});

/** What a description says, without the names of other tools it points to. */
const said = (tool: Tool): string => (tool.description ?? "").replace(/\blabdata_\w+/g, "").toLowerCase();

/**
 * The read-only tool whose description matches the most keywords, its first sentence counting twice.
 * A question never picks a tool that writes.
 */
function choose(keywords: string[]): Tool {
  const score = (tool: Tool) => {
    const text = said(tool);
    const first = text.split(/[.:]\s/)[0] ?? "";
    return keywords.reduce((sum, kw) => sum + (text.includes(kw) ? 1 : 0) + (first.includes(kw) ? 1 : 0), 0);
  };
  const readers = tools.filter((tool) => tool.annotations?.readOnlyHint === true);
  const ranked = [...readers].sort((a, b) => score(b) - score(a));
  const [best, second] = ranked;
  if (!best || score(best) === 0) throw new Error(`no tool for ${keywords.join(", ")}`);
  // The choice must be clear, not a coin toss between two tools.
  expect(score(best), `${best.name} vs ${second?.name}`).toBeGreaterThan(second ? score(second) : 0);
  return best;
}

/** The input whose description contains every one of `words`. */
function inputFor(tool: Tool, ...words: string[]): string {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
  const found = Object.entries(properties).find(([, p]) =>
    words.every((w) => (p.description ?? "").toLowerCase().includes(w)),
  );
  if (!found) throw new Error(`${tool.name} has no input described with ${words.join(", ")}`);
  return found[0];
}

let calls = 0;
async function use(tool: Tool, args: Record<string, unknown>): Promise<string> {
  calls += 1;
  const { text, isError } = textOf(await conn.client.callTool({ name: tool.name, arguments: args }));
  expect(isError, text).toBe(false);
  return text;
}

/** Monday to Sunday of the week before `today` (YYYY-MM-DD). */
function lastWeek(today: string): { from: string; to: string } {
  const day = new Date(`${today}T00:00:00Z`);
  const monday = new Date(day.getTime() - (((day.getUTCDay() + 6) % 7) + 7) * 86_400_000);
  const sunday = new Date(monday.getTime() + 6 * 86_400_000);
  return { from: monday.toISOString().slice(0, 10), to: sunday.toISOString().slice(0, 10) };
}

describe("the agent answers the issue's questions from the tool descriptions", () => {
  it("'what did I record in my notebook on the Cas9 screen last week?' in two calls", async () => {
    calls = 0;
    const week = lastWeek(emulator.demo.notebook.today);
    expect(week).toEqual({ from: "2025-06-23", to: "2025-06-29" });
    const finder = choose(["notebook entries", "recorded", "author", "date"]);
    const found = await use(finder, {
      [inputFor(finder, "name contains")]: "Cas9 screen",
      [inputFor(finder, "'me'")]: "me",
      [inputFor(finder, "first..last")]: `${week.from}..${week.to}`,
    });
    const ids = [...found.matchAll(/^- \*\*.+ \((\w+)\)\*\*/gm)].map((m) => m[1]);
    expect(ids).toHaveLength(1);
    const reader = choose(["read one notebook entry", "days", "notes", "checklists", "tables"]);
    const entry = await use(reader, { [inputFor(reader, "id (etr_")]: ids[0] });
    expect(calls).toBe(2);
    expect(entry).toContain("# Cas9 screen – HEK293T guide panel");
    for (const day of [
      "## 2025-06-23: Transfection",
      "## 2025-06-24: Harvest",
      "## 2025-06-26: Sequencing readout",
    ])
      expect(entry).toContain(day);
    expect(entry).toContain("- [x] Transfected Cas9 RNP with Lipofectamine CRISPRMAX");
    expect(entry).toContain("Assay run: NGS Amplicon Run 12");
  });

  it("'what were the assay results of run 12?' in one call", async () => {
    calls = 0;
    const tool = choose(["assay results", "measured values", "run", "units"]);
    const answer = await use(tool, { [inputFor(tool, "run", "number")]: "12" });
    expect(calls).toBe(1);
    expect(answer).toContain("Run: NGS Amplicon Run 12");
    expect(answer).toContain("Found 6 results");
    expect(answer).toContain("Editing efficiency (%)");
    // What was measured, a row per guide: no result id column.
    expect(answer.match(/^\| .+ \(seq_\w+\) \| \d/gm)).toHaveLength(6);
  });

  it("'what tasks are assigned to me?' in one call", async () => {
    calls = 0;
    const tool = choose(["tasks", "assigned to me", "status"]);
    const answer = await use(tool, {});
    expect(calls).toBe(1);
    const { user } = emulator.demo;
    expect(answer.split("\n")[0]).toBe(`# Open tasks assigned to you (${user.name} (${user.id}))`);
    expect(answer.match(/^- \*\*TSK\d+ \(wftask_\w+\)\*\*/gm)).toHaveLength(3);
    expect(answer).toContain("Amplicon sequencing of the two best guides from run 12");
  });
});
