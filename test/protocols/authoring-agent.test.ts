// The end-to-end test that plays the agent: signed in with OAuth, it turns a markdown
// outline of six steps in two sections into a draft, inserts a centrifugation step after step 3, reads
// the steps back in order, downloads a PDF of the steps only, then deletes the last step. The emulator's
// own state proves each effect, and a second user sees none of the draft.
import { existsSync, readFileSync } from "node:fs";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { callJson, callText, connectInMemory } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import { clientTokenEnv, connectWithBrowser, loopbackApp, oauthEnv, tempHome } from "../support/protocols.js";
import { pdfText } from "./pdf-text.js";

const emulator = useProtocolsEmulator();

/** What the scientist gave the agent: today's work as a markdown outline. */
const OUTLINE = `# Plasmid miniprep, as done today

Quick alkaline lysis miniprep for 2 mL overnight cultures.

## Lysis
1. Pellet 2 mL of overnight culture at 8000 x g for 2 min and pour off the medium.
2. Resuspend the pellet in 250 µL **P1** buffer with RNase A.
3. Add 250 µL P2 and invert 5 times; do not vortex.

## Purification
4. Add 350 µL N3 and invert at once until the lysate is colourless.
5. Load the supernatant on a spin column and wash with 750 µL PE.
6. Elute the DNA in 50 µL EB into a fresh tube.`;

/** The agent's reading of the outline: title, description, and steps under their sections. */
function outlineToDraft(outline: string) {
  const lines = outline.split("\n");
  const title = (lines.find((line) => line.startsWith("# ")) ?? "").slice(2);
  const description = lines.find((line) => line.trim() !== "" && !/^(#|\d+\.)/.test(line)) ?? "";
  const steps: Array<{ text: string; section?: string }> = [];
  let section: string | undefined;
  for (const line of lines) {
    if (line.startsWith("## ")) section = line.slice(3);
    const step = /^\d+\.\s+(.*)$/.exec(line)?.[1];
    if (step) {
      steps.push(section ? { text: step, section } : { text: step });
      section = undefined;
    }
  }
  return { title, description, steps };
}

interface StepsAnswer {
  total_steps: number;
  steps: Array<{ number: string; section: string | null; text: string }>;
}

describe("an agent drafts, edits and reads back a protocol", () => {
  it("does the whole task with tools chosen from their descriptions, and the repository holds exactly that", async () => {
    const app = await loopbackApp(emulator);
    const home = tempHome();
    const agent = await connectWithBrowser(
      emulator,
      oauthEnv(emulator, app, home, { MCP_ALLOW_DESTRUCTIVE: "true" }),
      "mei-chen",
    );
    const { tools } = await agent.client.listTools();
    const pick = (wanted: RegExp): Tool => {
      const found = tools.filter((tool) => wanted.test(tool.description ?? ""));
      expect(found.map((tool) => tool.name)).toHaveLength(1);
      return found[0] as Tool;
    };
    const creator = pick(/^Create a private protocol draft/);
    const inserter = pick(/^Insert one step/);
    const stepReader = pick(/^Read one protocol by part: .*'steps'/);
    const pdfTool = pick(/^Download a protocol as a PDF/);
    const deleter = pick(/^Delete one step/);
    for (const writer of [creator, inserter, deleter]) {
      expect(writer.description).toMatch(/Nothing is published/);
      expect(writer.annotations?.readOnlyHint).toBe(false);
    }
    expect(deleter.annotations?.destructiveHint).toBe(true);
    expect(inserter.annotations?.destructiveHint).toBe(false);

    expect((await callText(agent, "protocols_sign_in")).isError).toBe(false);

    // 1. The draft, from the outline: six steps in two sections.
    const draft = outlineToDraft(OUTLINE);
    expect(draft.steps).toHaveLength(6);
    const created = await agent.client.callTool({ name: creator.name, arguments: draft });
    expect(created.isError).toBeFalsy();
    const record = created.structuredContent as {
      id: number;
      uri: string;
      public: boolean;
      number_of_steps: number;
    };
    expect(record).toMatchObject({ title: draft.title, public: false, number_of_steps: 6 });
    const text = (created.content as Array<{ text: string }>)[0]?.text ?? "";
    expect(text).toContain("publishing it is up to you");

    const stored = emulator.admin.protocol(String(record.id));
    expect(stored).toMatchObject({ title: draft.title, creator: "mei-chen", public: false });
    expect(stored?.description).toBe(draft.description);
    expect(stored?.steps.map((step) => step.section)).toEqual([
      "Lysis",
      "Lysis",
      "Lysis",
      "Purification",
      "Purification",
      "Purification",
    ]);
    expect(stored?.steps.map((step) => step.text)).toEqual([
      "Pellet 2 mL of overnight culture at 8000 x g for 2 min and pour off the medium.",
      "Resuspend the pellet in 250 µL **P1** buffer with RNase A.",
      "Add 250 µL P2 and invert 5 times; do not vortex.",
      "Add 350 µL N3 and invert at once until the lysate is colourless.",
      "Load the supernatant on a spin column and wash with 750 µL PE.",
      "Elute the DNA in 50 µL EB into a fresh tube.",
    ]);

    // 2. "Add a centrifugation step after step 3."
    const centrifuge = "Centrifuge at 13,000 x g for 10 min at 4 °C.";
    const inserted = await agent.client.callTool({
      name: inserter.name,
      arguments: { protocol: record.id, after_step: 3, text: centrifuge },
    });
    expect(inserted.isError).toBeFalsy();
    const afterInsert = emulator.admin.protocol(String(record.id));
    expect(afterInsert?.steps).toHaveLength(7);
    expect(afterInsert?.steps[3]).toMatchObject({ text: centrifuge, section: "Lysis" });
    expect(afterInsert?.steps.slice(0, 3)).toEqual(stored?.steps.slice(0, 3));
    expect(afterInsert?.steps.slice(4)).toEqual(stored?.steps.slice(3));

    // 3. Read back in order, exactly as written.
    const read = await callJson<{ steps: Array<{ section?: string; step: string }> }>(
      agent,
      stepReader.name,
      {
        protocol: record.id,
        part: "steps",
      },
    );
    expect(read.steps.map((step) => step.step)).toEqual([
      ...draft.steps.slice(0, 3).map((step) => step.text),
      centrifuge,
      ...draft.steps.slice(3).map((step) => step.text),
    ]);
    expect(read.steps.map((step) => step.section)).toEqual([
      "Lysis",
      "Lysis",
      "Lysis",
      "Lysis",
      "Purification",
      "Purification",
      "Purification",
    ]);

    // 4. The PDF of the steps only.
    const pdf = await callJson<{ path: string; view: string }>(agent, pdfTool.name, {
      protocol: record.id,
      only: "steps",
    });
    expect(pdf.view).toBe("the steps only");
    expect(existsSync(pdf.path)).toBe(true);
    const printed = pdfText(readFileSync(pdf.path));
    expect(printed).toContain("Centrifuge at 13,000 x g for 10 min");
    expect(printed).toContain("Elute the DNA in 50 µL EB");
    expect(printed).not.toContain("Quick alkaline lysis miniprep");
    const pdfRequest = emulator.requests
      .entries()
      .filter((entry) => entry.path.endsWith(".pdf"))
      .at(-1);
    expect(pdfRequest?.path).toBe(`/view/${afterInsert?.uri}.pdf`);

    // 5. Delete the last step.
    const deleted = await agent.client.callTool({
      name: deleter.name,
      arguments: { protocol: record.id, step_number: 7 },
    });
    expect(deleted.isError).toBeFalsy();
    const final = emulator.admin.protocol(String(record.id));
    expect(final?.steps.map((step) => step.text)).toEqual(
      afterInsert?.steps.slice(0, 6).map((step) => step.text),
    );
    const answer = deleted.structuredContent as StepsAnswer;
    expect(answer.total_steps).toBe(6);
    expect(answer.steps.at(-1)?.text).toBe("Load the supernatant on a spin column and wash with 750 µL PE.");
    expect(emulator.admin.protocol(String(record.id))?.public).toBe(false);

    // A second user sees none of it: not by id, not by uri, not in search, not in their lists.
    const other = await connectInMemory(protocolsService, clientTokenEnv(emulator));
    for (const ref of [record.id, record.uri]) {
      expect(await callText(other, "protocols_get_protocol", { protocol: ref })).toEqual({
        isError: true,
        text: "Error: Resource not found. Please check the ID is correct.",
      });
      expect(
        (await callText(other, "protocols_get_protocol", { part: "steps", protocol: ref })).isError,
      ).toBe(true);
    }
    const search = await callJson<{ protocols: Array<{ id: number }> }>(other, "protocols_search", {
      keyword: "Plasmid miniprep, as done today",
      limit: 100,
    });
    expect(search.protocols.map((p) => p.id)).not.toContain(record.id);
    const shared = await callJson<{ protocols: Array<{ id: number }> }>(
      other,
      "protocols_list_my_protocols",
      {
        which: "shared_with_me",
        limit: 100,
      },
    );
    expect(shared.protocols.map((p) => p.id)).not.toContain(record.id);
    await other.close();
    await agent.close();
  });
});
