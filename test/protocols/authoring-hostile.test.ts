// Markdown that makes a naive converter quadratic (unclosed emphasis, nested marks: issue 25, item 5):
// the writing tools convert it in work proportional to its length, so a request of many long hostile
// steps ends in seconds instead of minutes, and each step is kept, as a small request keeps it.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Connected } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import { connectWithBrowser, type Heard, loopbackApp, oauthEnv } from "../support/protocols.js";

const emulator = useProtocolsEmulator();
let writer: Connected & { heard: Heard };
beforeAll(async () => {
  writer = await connectWithBrowser(
    emulator,
    oauthEnv(emulator, await loopbackApp(emulator)),
    "tomas-garcia",
  );
  expect((await writer.client.callTool({ name: "protocols_sign_in" })).isError).toBeFalsy();
});
afterAll(async () => {
  await writer.close();
});

// 20,000 characters of openers that never close: ~1.5 s each with markdown-draft-js.
const HOSTILE = "**_a ".repeat(4_000);

async function draftOf(steps: number): Promise<string[]> {
  const created = await writer.client.callTool({
    name: "protocols_create_draft",
    arguments: { title: "Hostile", steps: Array.from({ length: steps }, () => ({ text: HOSTILE })) },
  });
  expect(created.isError).toBeFalsy();
  const id = String((created.structuredContent as { id: number }).id);
  return emulator.admin.protocol(id)?.steps.map((step) => step.text) ?? [];
}

it("converts many long hostile steps in linear work, each kept as one alone is", async () => {
  const [alone] = await draftOf(1);
  expect(alone?.length).toBeGreaterThan(10_000);
  const many = await draftOf(30);
  expect(many).toHaveLength(30);
  expect(new Set(many)).toEqual(new Set([alone]));
});
