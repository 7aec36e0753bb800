// The writing tools against a repository whose answers the test chooses: a step list that is not one
// list (step cases that branch, a loop) is never written to, and a removal the repository does not relink
// gets the missing link sent. Steps here are in the recorded v4 shape (fact sheet §5.1).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { textOf } from "../../support/clients.js";
import { connectWithOAuth, type Listening } from "./connect.js";
import { type FakeRepository, startFakeRepository } from "./fake-repository.js";

const [A, B, C] = ["A".repeat(32), "B".repeat(32), "C".repeat(32)];
const step = (guid: string, previous: string | null, text: string) => ({
  id: guid.charCodeAt(0),
  guid,
  previous_guid: previous,
  number: null,
  section: "<p>Main</p>",
  step: JSON.stringify({
    blocks: [
      { key: "k", text, type: "unstyled", depth: 0, inlineStyleRanges: [], entityRanges: [], data: {} },
    ],
    entityMap: {},
  }),
});

/** A tool's text, "[error] " before it when it failed. */
async function callText(agent: Listening, name: string, args: Record<string, unknown>): Promise<string> {
  const { text, isError } = textOf(await agent.client.callTool({ name, arguments: args }));
  return isError ? `[error] ${text}` : text;
}

let fake: FakeRepository;
let agent: Listening;
beforeEach(async () => {
  fake = await startFakeRepository();
  agent = await connectWithOAuth(
    fake,
    { access: "a".repeat(40), refresh: "r".repeat(40) },
    { MCP_ALLOW_DESTRUCTIVE: "true" },
  );
});
afterEach(async () => {
  await agent.close();
  await fake.close();
});

describe("a step list that is not one list", () => {
  it.each([
    [
      "branches (step cases)",
      [step(A, null, "one"), step(B, A, "case 1"), step(C, A, "case 2")],
      "an incomplete sequence",
    ],
    ["has two first steps", [step(A, null, "one"), step(B, null, "two")], "several first steps"],
    ["loops", [step(A, null, "one"), step(B, C, "two"), step(C, B, "three")], "a loop"],
  ])("that %s is not written to: the agent is told why", async (_name, steps, problem) => {
    fake.on("steps", { body: { payload: steps, status_code: 0 } });
    for (const [tool, args] of [
      ["protocols_insert_step", { protocol: 5, after_step: 1, text: "New" }],
      ["protocols_edit_step", { protocol: 5, step_number: 1, text: "New" }],
      ["protocols_delete_step", { protocol: 5, step_number: 1 }],
      ["protocols_set_steps", { protocol: 5, steps: [{ text: "New" }] }],
    ] as const) {
      expect(await callText(agent, tool, args)).toBe(
        `[error] Error: This protocol's steps do not form one list (${problem}, e.g. step cases that branch); ` +
          "change them in the repository's web interface. Nothing was changed.",
      );
    }
    expect(fake.seen.filter((seen) => seen.route !== "steps")).toEqual([]);
  });
});

describe("a removal", () => {
  it("that leaves the next step pointing at the removed one is followed by the link it must have", async () => {
    fake.on("steps", {
      body: { payload: [step(A, null, "one"), step(B, A, "two"), step(C, B, "three")], status_code: 0 },
    });
    // This repository removes B but leaves C pointing at it.
    fake.on("delete-steps", {
      body: { payload: [step(A, null, "one"), step(C, B, "three")], status_code: 0 },
    });
    fake.on("write-steps", {
      body: { payload: [step(A, null, "one"), step(C, A, "three")], status_code: 0 },
    });
    const answer = await callText(agent, "protocols_delete_step", { protocol: 5, step_number: 2 });
    expect(answer).not.toMatch(/^\[error\]/);
    const [removal, relink] = fake.seen.filter((seen) => seen.route !== "steps");
    expect(removal?.route).toBe("delete-steps");
    expect(JSON.parse(removal?.text ?? "")).toEqual({ steps: [B] });
    expect(relink?.route).toBe("write-steps");
    expect(JSON.parse(relink?.text ?? "").steps).toEqual([
      expect.objectContaining({ guid: C, previous_guid: A, section: "Main" }),
    ]);
  });
});

describe("rich text", () => {
  it("goes out as the repository's Draft.js, made from the agent's markdown; a step passed through is sent as it came", async () => {
    const kept = step(A, null, "one");
    fake.on("steps", { body: { payload: [kept, step(B, A, "two")], status_code: 0 } });
    fake.on("write-steps", { body: { payload: [], status_code: 0 } });
    await callText(agent, "protocols_edit_step", {
      protocol: 5,
      step_number: 2,
      text: "Spin **fast**, then:\n\n- decant\n- [dry](https://example.org/dry)",
    });
    const [write] = fake.seen.filter((seen) => seen.route === "write-steps");
    const [sent] = JSON.parse(write?.text ?? "").steps;
    expect(sent).toMatchObject({ guid: B, previous_guid: A, section: "Main" });
    const draft = JSON.parse(sent.step);
    expect(draft.blocks.map((b: { type: string; text: string }) => [b.type, b.text])).toEqual([
      ["unstyled", "Spin fast, then:"],
      ["unordered-list-item", "decant"],
      ["unordered-list-item", "dry"],
    ]);
    expect(draft.blocks[0].inlineStyleRanges).toEqual([{ offset: 5, length: 4, style: "BOLD" }]);
    expect(Object.values(draft.entityMap)).toEqual([
      expect.objectContaining({
        type: "LINK",
        data: expect.objectContaining({ url: "https://example.org/dry" }),
      }),
    ]);
    for (const block of draft.blocks)
      expect(block).toEqual(expect.objectContaining({ key: expect.any(String), data: {} }));

    fake.seen.length = 0;
    await callText(agent, "protocols_insert_step", { protocol: 5, after_step: 0, text: "zero" });
    const [insert] = fake.seen.filter((seen) => seen.route === "write-steps");
    const follower = JSON.parse(insert?.text ?? "").steps[1];
    expect(follower).toEqual({
      guid: A,
      previous_guid: expect.any(String),
      step: kept.step,
      section: "Main",
    });
  });
});
