// The writing tools and the reading added with them, in every dialect the repository emulator speaks
// (the recorded real-service shapes, each knob alone and all at once): a draft written, changed and read
// back, workspaces, materials, versions and a DOI read the same as in the plain `legacy` dialect.
import { beforeAll, describe, expect, it } from "vitest";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { callText, connectInMemory } from "../support/clients.js";
import { dialectVariants } from "../support/dialect-variants.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import { connectWithBrowser, loopbackApp, oauthEnv } from "../support/protocols.js";

const emulator = useProtocolsEmulator();
/** The signed-in server's settings: each round starts a new server on the same token file. */
let env: Record<string, string>;
let probe: { id: number; doi: string };
beforeAll(async () => {
  emulator.admin.updateSettings({
    rateLimits: { apiPerMinute: 100_000, pdfSignedInPerMinute: 5, pdfAnonymousPerMinute: 3 },
  });
  emulator.admin.updateDialect({ preset: "legacy" });
  const made = emulator.admin.createProtocol({
    title: "Dialect probe & co",
    creator: "mei-chen",
    public: true,
    versionCount: 2,
    materials: [{ name: "Tris-HCl", vendor: "Sigma", sku: "T3253", amount: "50 mM" }],
    steps: ["Weigh."],
  });
  probe = {
    id: made.id,
    doi: String(made.doi)
      .replace(/^dx\.doi\.org\//, "")
      .replace(/\/v\d+$/, ""),
  };
  const app = await loopbackApp(emulator);
  env = oauthEnv(emulator, app, undefined, { MCP_ALLOW_DESTRUCTIVE: "true" });
  const signingIn = await connectWithBrowser(emulator, env, "mei-chen");
  expect((await callText(signingIn, "protocols_sign_in")).isError).toBe(false);
  await signingIn.close();
});

/** What the agent reads from a fixed round of writes and reads; the new draft's id and uri made neutral. */
async function whatTheAgentReads(): Promise<Record<string, string>> {
  // A new server each round, as a real one meets one repository: what it learns (the page numbering)
  // is learnt from the dialect under test.
  const agent = await connectInMemory(protocolsService, env);
  const read: Record<string, string> = {};
  const created = await agent.client.callTool({
    name: "protocols_create_draft",
    arguments: {
      title: "Dialect draft",
      description: "Checks **every** dialect.",
      steps: [
        { text: "Thaw on ice.", section: "Start" },
        { text: "Mix 5 µL with 20 µL." },
        { text: "Spin.", section: "End" },
      ],
    },
  });
  const { id, uri } = created.structuredContent as { id: number; uri: string };
  // Each dialect writes its own draft, maybe a minute later than the plain one: times are not compared.
  const neutral = (text: string) =>
    text
      .replaceAll(uri, "<uri>")
      .replaceAll(String(id), "<id>")
      .replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/g, "<time>");
  const round: Array<[string, string, Record<string, unknown>]> = [
    ["insert", "protocols_insert_step", { protocol: id, after_step: 1, text: "Vortex 5 s." }],
    ["edit", "protocols_edit_step", { protocol: id, step_number: 4, section: "Finish" }],
    ["delete", "protocols_delete_step", { protocol: id, step_number: 2 }],
    ["update", "protocols_update_draft", { protocol: id, guidelines: "Work on ice." }],
    ["steps json", "protocols_get_protocol", { part: "steps", protocol: id, response_format: "json" }],
    ["draft", "protocols_get_protocol", { protocol: id }],
    ["workspaces", "protocols_list_workspaces", {}],
    ["materials", "protocols_get_protocol", { part: "materials", protocol: probe.id }],
    ["versions", "protocols_get_protocol", { part: "versions", protocol: probe.id }],
    [
      "by doi",
      "protocols_get_protocol",
      { protocol: `https://doi.org/${probe.doi}/v1`, response_format: "json" },
    ],
  ];
  read.created = neutral(String((created.content as Array<{ text: string }>)[0]?.text));
  for (const [label, tool, args] of round) {
    const { text, isError } = await callText(agent, tool, args);
    read[label] = neutral(`${isError ? "[error] " : ""}${text}`);
  }
  await agent.close();
  return read;
}

/** What a dialect may change: a DOI's /vN suffix, and the shapes of a json record that stay the repository's own. */
function comparable(label: string, text: string): string {
  if (label === "by doi") {
    const { id, title, version_id } = JSON.parse(text);
    return JSON.stringify({ id, title, version_id });
  }
  // Steps carry their own new ids and guids; their order, sections and text are what must match.
  if (label === "steps json") {
    const { steps } = JSON.parse(text) as { steps: Array<{ section?: string; step: string }> };
    return JSON.stringify(steps.map((step) => [step.section, step.step]));
  }
  return text.replace(/(protocols\.io\.[a-z0-9]+)\/v\d+/g, "$1");
}

let baseline: Record<string, string>;
beforeAll(async () => {
  baseline = await whatTheAgentReads();
});

describe("the baseline", () => {
  it("is what was written, readable", () => {
    const steps = JSON.parse(baseline["steps json"] ?? "{}") as {
      steps: Array<{ section: string; step: string }>;
    };
    expect(steps.steps.map((s) => [s.section, s.step])).toEqual([
      ["Start", "Thaw on ice."],
      ["Start", "Mix 5 µL with 20 µL."],
      ["Finish", "Spin."],
    ]);
    expect(baseline.draft).toContain("Work on ice.");
    expect(baseline.materials).toContain("| Tris-HCl | Sigma | T3253 | 50 mM |");
    expect(baseline.workspaces).toContain("Okafor Lab");
    for (const text of Object.values(baseline))
      expect(text).not.toMatch(/undefined|\[object Object\]|"blocks"|<\/?p>|&amp;/);
  });
});

const variants = dialectVariants();

describe.each(variants)("in the dialect with %s", (_name, patch) => {
  it("the agent writes and reads what it does in the plain dialect", async () => {
    emulator.admin.updateDialect(patch);
    try {
      const read = await whatTheAgentReads();
      for (const [label, text] of Object.entries(baseline)) {
        expect(comparable(label, read[label] ?? ""), label).toBe(comparable(label, text));
      }
    } finally {
      emulator.admin.updateDialect({ preset: "legacy" });
    }
  });
});
