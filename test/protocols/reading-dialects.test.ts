// protocols_mcp reads every dialect the repository emulator can speak (the recorded real-service shapes
// of the fact sheet, each knob alone and all at once) and tells the agent the same thing as in the
// emulator's plain `legacy` dialect: the same protocols in the same order, the same steps in their linked
// order with readable text and section names, the same errors. Only a DOI's version suffix, which the
// `versioned` knob adds, may differ.
import { beforeAll, describe, expect, it } from "vitest";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { type Connected, callText, connectInMemory } from "../support/clients.js";
import { dialectVariants } from "../support/dialect-variants.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import { clientTokenEnv } from "../support/protocols.js";

const emulator = useProtocolsEmulator();
beforeAll(async () => {
  // Many rounds of calls in a minute: the repository's own limit is not what this test is about.
  emulator.admin.updateSettings({
    rateLimits: { apiPerMinute: 100_000, pdfSignedInPerMinute: 5, pdfAnonymousPerMinute: 3 },
  });
});

/** What an agent reads from a fixed round of calls, one text per call. */
async function whatTheAgentReads(): Promise<Record<string, string>> {
  // A new server each round, as a real one meets one repository: what it learns (the page numbering)
  // is learnt from the dialect under test.
  const conn = await connectInMemory(protocolsService, clientTokenEnv(emulator));
  const badToken = await connectInMemory(
    protocolsService,
    clientTokenEnv(emulator, { PROTOCOLS_ACCESS_TOKEN: "not-a-token-of-this-repository" }),
  );
  const sample = String(emulator.demo.sampleProtocol.id);
  const calls: Array<[string, Connected, string, Record<string, unknown>]> = [
    ["search page 1", conn, "protocols_search", { keyword: "western blot", limit: 5 }],
    ["search page 3", conn, "protocols_search", { order: "title", offset: 40, limit: 20 }],
    ["search as json", conn, "protocols_search", { order: "title", limit: 7, response_format: "json" }],
    ["protocol", conn, "protocols_get_protocol", { protocol: "12314" }],
    ["steps", conn, "protocols_get_protocol", { part: "steps", protocol: sample, limit: 40 }],
    ["one step", conn, "protocols_get_protocol", { part: "steps", protocol: sample, step_number: 26 }],
    ["my protocols", conn, "protocols_list_my_protocols", { limit: 10 }],
    ["not found", conn, "protocols_get_protocol", { protocol: "99999999" }],
    ["bad token", badToken, "protocols_search", { keyword: "western blot" }],
  ];
  const read: Record<string, string> = {};
  for (const [label, connection, tool, args] of calls) {
    const { text, isError } = await callText(connection, tool, args);
    read[label] = `${isError ? "[error] " : ""}${text}`;
  }
  await conn.close();
  await badToken.close();
  return read;
}

/** A DOI's `/vN` suffix is the one difference a dialect may make to what the agent reads. */
const withoutDoiVersion = (text: string) => text.replace(/(protocols\.io\.[a-z0-9]+)\/v\d+/g, "$1");

/** Every text of `read` differs only where the totals are unknown (no total to say). */
function expectSameReading(read: Record<string, string>, baseline: Record<string, string>) {
  for (const [label, text] of Object.entries(baseline)) {
    expect(withoutDoiVersion(read[label] ?? ""), label).toBe(text);
  }
}

let baseline: Record<string, string>;
beforeAll(async () => {
  emulator.admin.updateDialect({ preset: "legacy" });
  baseline = await whatTheAgentReads();
});

describe("the baseline itself", () => {
  it("is readable: names, linked step order, exact error texts", () => {
    expect(baseline.protocol).toMatch(/^# Western blot for LC3-II autophagy marker \(12314\)/);
    expect(baseline.steps).toMatch(/\*\*Step 1\.\*\*[\s\S]*\*\*Step 2\.\*\*/);
    expect(baseline["not found"]).toBe("[error] Error: Resource not found. Please check the ID is correct.");
    expect(baseline["bad token"]).toBe("[error] Error: Invalid API authentication");
    for (const text of Object.values(baseline)) {
      expect(text).not.toMatch(/undefined|\[object Object\]|"blocks"|<\/?p>|&amp;/);
    }
  });
});

const variants = dialectVariants();

describe.each(variants)("in the dialect with %s", (_name, patch) => {
  it("the agent reads what it reads in the plain dialect", async () => {
    emulator.admin.updateDialect(patch);
    try {
      const read = await whatTheAgentReads();
      // With no total in the answer the client cannot say one; everything else must match.
      if (emulator.admin.dialect().dialect.listEra === "absent") {
        for (const label of ["search page 1", "search page 3", "my protocols"]) delete read[label];
        const items = (text: string) =>
          (JSON.parse(text.replace(/^\[error\] /, "")) as { protocols: unknown[] }).protocols;
        expect(items(read["search as json"] ?? "")).toEqual(items(baseline["search as json"] ?? ""));
        delete read["search as json"];
        expectSameReading(
          read,
          Object.fromEntries(Object.entries(baseline).filter(([label]) => label in read)),
        );
      } else {
        expectSameReading(read, baseline);
      }
    } finally {
      emulator.admin.updateDialect({ preset: "legacy" });
    }
  });
});
