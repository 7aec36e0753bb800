// The writing tools one by one, against the emulator: who may write (an OAuth sign-in, never a client
// token), what MCP_ALLOW_DESTRUCTIVE gates, each write's effect on the repository's state, and the
// mistakes refused before any request (a step number out of range, nothing to change).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { type Connected, callText, connectInMemory } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import {
  clientTokenEnv,
  connectWithBrowser,
  type Heard,
  loopbackApp,
  oauthEnv,
  servedStartingWith,
} from "../support/protocols.js";

const emulator = useProtocolsEmulator();
let writer: Connected & { heard: Heard };
let cautious: Connected & { heard: Heard };
beforeAll(async () => {
  const app = await loopbackApp(emulator);
  writer = await connectWithBrowser(
    emulator,
    oauthEnv(emulator, app, undefined, { MCP_ALLOW_DESTRUCTIVE: "true" }),
    "tomas-garcia",
  );
  cautious = await connectWithBrowser(emulator, oauthEnv(emulator, app), "tomas-garcia");
  for (const connection of [writer, cautious]) {
    expect((await callText(connection, "protocols_sign_in")).isError).toBe(false);
  }
});
afterAll(async () => {
  await writer.close();
  await cautious.close();
});

const WRITE_TOOLS: Array<[string, Record<string, unknown>]> = [
  ["protocols_create_draft", { title: "Mine" }],
  ["protocols_update_draft", { protocol: 12001, title: "Mine" }],
  ["protocols_set_steps", { protocol: 12001, steps: [{ text: "One" }] }],
  ["protocols_insert_step", { protocol: 12001, after_step: 0, text: "One" }],
  ["protocols_edit_step", { protocol: 12001, step_number: 1, text: "One" }],
  ["protocols_delete_step", { protocol: 12001, step_number: 1 }],
];

async function draftWith(steps: Array<{ text: string; section?: string }>): Promise<string> {
  const created = await writer.client.callTool({
    name: "protocols_create_draft",
    arguments: { title: "Buffer exchange", description: "Swap the buffer of a protein sample.", steps },
  });
  expect(created.isError).toBeFalsy();
  return String((created.structuredContent as { id: number }).id);
}

const stored = (id: string) => emulator.admin.protocol(id);
const texts = (id: string) => stored(id)?.steps.map((step) => step.text);

describe("who may write", () => {
  it("a client-token server says why for every writing tool, and sends nothing", async () => {
    const reader = await connectInMemory(
      protocolsService,
      clientTokenEnv(emulator, { MCP_ALLOW_DESTRUCTIVE: "true" }),
    );
    const before = servedStartingWith(emulator, "/api/");
    for (const [name, args] of WRITE_TOOLS) {
      const { text, isError } = await callText(reader, name, args);
      expect(isError, name).toBe(true);
      expect(text, name).toBe(
        "Error: Writing protocols needs a signed-in account (OAuth), and this server uses the client token in " +
          "PROTOCOLS_ACCESS_TOKEN, which only reads. To write drafts, set PROTOCOLS_CLIENT_ID, " +
          "PROTOCOLS_CLIENT_SECRET and PROTOCOLS_REDIRECT_URI (your application on the repository) instead of " +
          "PROTOCOLS_ACCESS_TOKEN, restart the server and sign in with protocols_sign_in.",
      );
    }
    expect(servedStartingWith(emulator, "/api/")).toBe(before);
    await reader.close();
  });

  it("MCP_READ_ONLY leaves out every writing tool, and the new reading tools stay", async () => {
    const app = await loopbackApp(emulator);
    const readOnly = await connectInMemory(
      protocolsService,
      oauthEnv(emulator, app, undefined, { MCP_READ_ONLY: "true", MCP_ALLOW_DESTRUCTIVE: "true" }),
    );
    const names = (await readOnly.client.listTools()).tools.map((tool) => tool.name);
    for (const [name] of WRITE_TOOLS) expect(names).not.toContain(name);
    expect(names).toEqual(
      expect.arrayContaining(["protocols_list_my_protocols", "protocols_list_workspaces"]),
    );
    const refused = await callText(readOnly, "protocols_create_draft", { title: "Mine" });
    expect(refused.text).toMatch(/^Error: Tool protocols_create_draft is not enabled on this server/);
    await readOnly.close();
  });

  it("without MCP_ALLOW_DESTRUCTIVE, deleting or replacing steps is refused before any request", async () => {
    const id = await draftWith([{ text: "Keep me" }]);
    const before = servedStartingWith(emulator, "/api/");
    for (const [name, args] of [
      ["protocols_delete_step", { protocol: id, step_number: 1 }],
      ["protocols_set_steps", { protocol: id, steps: [{ text: "Replaced" }] }],
    ] as const) {
      expect(await callText(cautious, name, args)).toEqual({
        isError: true,
        text:
          `Error: Tool ${name} deletes or replaces data, which this server offers only with ` +
          "MCP_ALLOW_DESTRUCTIVE=true. Set it and restart the server to use it.",
      });
    }
    expect(servedStartingWith(emulator, "/api/")).toBe(before);
    expect(texts(id)).toEqual(["Keep me"]);
    // The same sign-in may still add a step.
    expect(
      (await callText(cautious, "protocols_insert_step", { protocol: id, after_step: 1, text: "Added" }))
        .isError,
    ).toBe(false);
    expect(texts(id)).toEqual(["Keep me", "Added"]);
  });
});

describe("the writes", () => {
  it("protocols_update_draft changes the fields given and leaves the rest", async () => {
    const id = await draftWith([{ text: "Step" }]);
    const updated = await writer.client.callTool({
      name: "protocols_update_draft",
      arguments: {
        protocol: id,
        title: "Buffer exchange by dialysis",
        warning: "Keep the **membrane** wet.",
      },
    });
    expect(updated.isError).toBeFalsy();
    expect(updated.structuredContent).toMatchObject({ title: "Buffer exchange by dialysis", public: false });
    expect(stored(id)).toMatchObject({
      title: "Buffer exchange by dialysis",
      description: "Swap the buffer of a protein sample.",
      warning: "Keep the **membrane** wet.",
    });
    const nothing = await callText(writer, "protocols_update_draft", { protocol: id });
    expect(nothing).toEqual({
      isError: true,
      text: "Error: Nothing to change: give at least one of title, description, guidelines, warning, materials.",
    });
  });

  it("protocols_set_steps replaces every step, longer or shorter, with their sections", async () => {
    const id = await draftWith([{ text: "Old one" }, { text: "Old two" }]);
    const longer = await writer.client.callTool({
      name: "protocols_set_steps",
      arguments: {
        protocol: id,
        steps: [{ text: "A", section: "Prepare" }, { text: "B" }, { text: "C", section: "Run" }],
      },
    });
    expect(longer.isError).toBeFalsy();
    expect(stored(id)?.steps.map((s) => [s.section, s.text])).toEqual([
      ["Prepare", "A"],
      ["Prepare", "B"],
      ["Run", "C"],
    ]);
    const shorter = await writer.client.callTool({
      name: "protocols_set_steps",
      arguments: { protocol: id, steps: [{ text: "Only" }] },
    });
    expect(shorter.structuredContent).toMatchObject({
      total_steps: 1,
      steps: [{ number: "1", text: "Only" }],
    });
    expect(stored(id)?.steps.map((s) => [s.section, s.text])).toEqual([[null, "Only"]]);
  });

  it("protocols_insert_step puts a step first, or after any step, and refuses a place that is not there", async () => {
    const id = await draftWith([{ text: "Two", section: "Main" }, { text: "Three" }]);
    await callText(writer, "protocols_insert_step", { protocol: id, after_step: 0, text: "One" });
    await callText(writer, "protocols_insert_step", {
      protocol: id,
      after_step: 3,
      text: "Four",
      section: "End",
    });
    expect(stored(id)?.steps.map((s) => [s.section, s.text])).toEqual([
      ["Main", "One"],
      ["Main", "Two"],
      ["Main", "Three"],
      ["End", "Four"],
    ]);
    const before = servedStartingWith(emulator, "/api/v4/protocols");
    expect(
      await callText(writer, "protocols_insert_step", { protocol: id, after_step: 9, text: "Nowhere" }),
    ).toEqual({
      isError: true,
      text: "Error: The protocol has 4 steps: give after_step from 0 (at the start) to 4. Nothing was changed.",
    });
    // One read of the steps, no write.
    expect(servedStartingWith(emulator, "/api/v4/protocols")).toBe(before + 1);
    expect(emulator.requests.entries().at(-1)?.method).toBe("GET");
  });

  it("protocols_edit_step rewrites a step's text or section in place", async () => {
    const id = await draftWith([{ text: "Mix", section: "A" }, { text: "Spin" }, { text: "Read" }]);
    await callText(writer, "protocols_edit_step", {
      protocol: id,
      step_number: 2,
      text: "Spin at 500 x g for *5 min*.",
    });
    await callText(writer, "protocols_edit_step", { protocol: id, step_number: 3, section: "B" });
    expect(stored(id)?.steps.map((s) => [s.section, s.text])).toEqual([
      ["A", "Mix"],
      ["A", "Spin at 500 x g for _5 min_."],
      ["B", "Read"],
    ]);
    expect(
      await callText(writer, "protocols_edit_step", { protocol: id, step_number: 4, text: "x" }),
    ).toEqual({
      isError: true,
      text: "Error: The protocol has 3 steps: give step_number from 1 to 3. Nothing was changed.",
    });
    expect(await callText(writer, "protocols_edit_step", { protocol: id, step_number: 1 })).toEqual({
      isError: true,
      text: "Error: Nothing to change: give text, section or both.",
    });
  });

  it("protocols_delete_step removes the first, a middle or the last step and keeps the rest in order", async () => {
    const id = await draftWith([{ text: "1" }, { text: "2" }, { text: "3" }, { text: "4" }]);
    await callText(writer, "protocols_delete_step", { protocol: id, step_number: 2 });
    expect(texts(id)).toEqual(["1", "3", "4"]);
    await callText(writer, "protocols_delete_step", { protocol: id, step_number: 1 });
    expect(texts(id)).toEqual(["3", "4"]);
    const last = await callText(writer, "protocols_delete_step", { protocol: id, step_number: 2 });
    expect(last.isError).toBe(false);
    expect(last.text).toContain("Step 2 deleted.");
    expect(texts(id)).toEqual(["3"]);
  });

  it("never writes another user's protocol, nor a published one", async () => {
    const published = emulator.demo.sampleProtocol;
    const mine = await callText(writer, "protocols_update_draft", { protocol: published.id, title: "Taken" });
    expect(mine.isError).toBe(true);
    expect(mine.text).toMatch(/^Error: (Permission denied|Resource not found)/);
    expect(stored(String(published.id))?.title).toBe(published.title);
  });
});
