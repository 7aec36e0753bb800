// The emulator's draft writes over HTTPS (fact sheet §4.2, §5.3): a blank private draft made under a
// guid, its fields set by its owner alone, steps added, changed and removed by guid, and the service's
// own words for a step list that is not one list (loop, several first steps, incomplete sequence).
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { demoOf, useProtocolsEmulator } from "../../support/emulator.js";
import { api, clientTokenOf } from "../../support/protocols-http.js";

const emulator = useProtocolsEmulator({ dialect: "recorded" });
/** Tokens of three users: mei (the author), tomas (another user), ada (the demo application's owner). */
let mei: string;
let tomas: string;
beforeAll(async () => {
  mei = clientTokenOf(emulator, "mei-chen");
  tomas = clientTokenOf(emulator, "tomas-garcia");
});

const guid = () => randomBytes(16).toString("hex").toUpperCase();
const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

async function newDraft(token = mei): Promise<number> {
  const created = await api<{ protocol: { id: number; public: number }; status_code: number }>(
    emulator,
    `/api/v3/protocols/${guid().toLowerCase()}`,
    token,
    { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "type_id=1" },
  );
  expect(created.status).toBe(200);
  expect(created.body.status_code).toBe(0);
  // v3 flags are integers in the recorded dialect; a new draft is private.
  expect(created.body.protocol.public).toBe(0);
  return created.body.protocol.id;
}

describe("drafts", () => {
  it("creates a blank private draft only its owner sees and changes", async () => {
    const id = await newDraft();
    expect(emulator.admin.protocol(String(id))).toMatchObject({
      creator: "mei-chen",
      public: false,
      title: "",
    });

    const draftJs = JSON.stringify({
      blocks: [
        {
          key: "a",
          text: "Bold start here",
          type: "unstyled",
          depth: 0,
          inlineStyleRanges: [{ offset: 0, length: 4, style: "BOLD" }],
          entityRanges: [],
          data: {},
        },
        {
          key: "b",
          text: "first",
          type: "ordered-list-item",
          depth: 0,
          inlineStyleRanges: [],
          entityRanges: [],
          data: {},
        },
        {
          key: "c",
          text: "second",
          type: "ordered-list-item",
          depth: 0,
          inlineStyleRanges: [],
          entityRanges: [{ offset: 0, length: 6, key: 0 }],
          data: {},
        },
      ],
      entityMap: { "0": { type: "LINK", mutability: "MUTABLE", data: { url: "https://example.org/x" } } },
    });
    const put = await api<{ payload: { title: string } }>(
      emulator,
      `/api/v4/protocols/${id}`,
      mei,
      json("PUT", { title: "My draft", description: draftJs, warning: "Wear gloves." }),
    );
    expect(put.status).toBe(200);
    expect(put.body.payload.title).toBe("My draft");
    expect(emulator.admin.protocol(String(id))).toMatchObject({
      title: "My draft",
      description: "**Bold** start here\n1. first\n2. [second](https://example.org/x)",
      warning: "Wear gloves.",
    });

    // Another user: as if it did not exist, for reading and writing alike.
    for (const init of [
      {},
      json("PUT", { title: "Mine now" }),
      json("POST", { steps: [{ guid: guid(), step: "x" }] }),
    ]) {
      const path = init.method === "POST" ? `/api/v4/protocols/${id}/steps` : `/api/v4/protocols/${id}`;
      const reply = await api(emulator, path, tomas, init);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ status_code: 1404, status_text: "Protocol not found." });
    }
    const listed = await api<{ items: Array<{ id: number }> }>(
      emulator,
      "/api/v3/protocols?filter=public&key=My%20draft&page_size=100",
      tomas,
    );
    expect(listed.body.items.map((item) => item.id)).not.toContain(id);
    expect(emulator.admin.protocol(String(id))?.title).toBe("My draft");
  });

  it("refuses a bad guid, a second draft under the same guid, and changes to a published protocol", async () => {
    const bad = await api(emulator, "/api/v3/protocols/not-a-guid", mei, {
      method: "POST",
      body: "type_id=1",
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status_code: 1, error_message: "guid must be 32 hexadecimal digits." });
    const same = guid();
    expect(
      (await api(emulator, `/api/v3/protocols/${same}`, mei, { method: "POST", body: "type_id=1" })).status,
    ).toBe(200);
    expect(
      (await api(emulator, `/api/v3/protocols/${same}`, mei, { method: "POST", body: "type_id=1" })).status,
    ).toBe(400);

    const published = demoOf(emulator).sampleProtocol;
    const owner = emulator.admin.protocol(String(published.id))?.creator ?? "";
    const app = emulator.admin.createApplication({ owner, redirectUri: "http://127.0.0.1:9/cb" });
    const ownerToken = emulator.admin.issueClientToken(app.clientId).accessToken;
    const put = await api(
      emulator,
      `/api/v4/protocols/${published.id}`,
      ownerToken,
      json("PUT", { title: "Changed" }),
    );
    expect(put.status).toBe(403);
    expect(put.body).toEqual({
      status_code: 132,
      status_text: "A published protocol changes only through a new version, in the web interface.",
    });
    expect(emulator.admin.protocol(String(published.id))?.title).toBe(published.title);
  });
});

describe("steps", () => {
  it("adds and changes steps by guid, keeps them in linked order, and removes one relinking its follower", async () => {
    const id = await newDraft();
    const [a, b, c] = [guid(), guid(), guid()];
    const steps = `/api/v4/protocols/${id}/steps`;
    // Sent out of order: the links decide.
    const posted = await api<{ payload: Array<{ guid: string; previous_guid: string | null }> }>(
      emulator,
      steps,
      mei,
      json("POST", {
        steps: [
          { guid: c, previous_guid: b, step: "Third", section: "<p>Two</p>" },
          { guid: a, previous_guid: null, step: "First", section: "One" },
          { guid: b, previous_guid: a, step: "Second", section: "One" },
        ],
      }),
    );
    expect(posted.status).toBe(200);
    expect(emulator.admin.protocol(String(id))?.steps).toEqual([
      { guid: a, section: "One", text: "First" },
      { guid: b, section: "One", text: "Second" },
      { guid: c, section: "Two", text: "Third" },
    ]);

    // A step named again changes; what it leaves out stays.
    expect(
      (await api(emulator, steps, mei, json("POST", { steps: [{ guid: b, step: "Second, changed" }] })))
        .status,
    ).toBe(200);
    expect(emulator.admin.protocol(String(id))?.steps[1]).toEqual({
      guid: b,
      section: "One",
      text: "Second, changed",
    });

    const removed = await api(emulator, steps, mei, json("DELETE", { steps: [b] }));
    expect(removed.status).toBe(200);
    expect(emulator.admin.protocol(String(id))?.steps.map((s) => s.guid)).toEqual([a, c]);
    const read = await api<{ payload: Array<{ guid: string; previous_guid: string | null }> }>(
      emulator,
      steps,
      mei,
    );
    expect(read.body.payload.find((s) => s.guid === c)?.previous_guid).toBe(a);
  });

  it.each([
    [
      "a loop",
      (x: string[]) => [
        { guid: x[0], previous_guid: x[1], step: "1" },
        { guid: x[1], previous_guid: x[0], step: "2" },
      ],
      "loop detected",
    ],
    [
      "a step that follows itself",
      (x: string[]) => [
        { guid: x[0], previous_guid: null, step: "1" },
        { guid: x[1], previous_guid: x[1], step: "2" },
      ],
      "loop detected",
    ],
    [
      "two first steps",
      (x: string[]) => [
        { guid: x[0], previous_guid: null, step: "1" },
        { guid: x[1], previous_guid: null, step: "2" },
      ],
      "multiple first steps",
    ],
    [
      "a link to no step",
      (x: string[]) => [
        { guid: x[0], previous_guid: null, step: "1" },
        { guid: x[1], previous_guid: x[2], step: "2" },
      ],
      "steps are not forming a complete sequence",
    ],
    [
      "a branch",
      (x: string[]) => [
        { guid: x[0], previous_guid: null, step: "1" },
        { guid: x[1], previous_guid: x[0], step: "2" },
        { guid: x[2], previous_guid: x[0], step: "3" },
      ],
      "steps are not forming a complete sequence",
    ],
  ])("refuses %s with the service's words, changing nothing", async (_name, make, words) => {
    const id = await newDraft();
    const steps = `/api/v4/protocols/${id}/steps`;
    const first = guid();
    await api(
      emulator,
      steps,
      mei,
      json("POST", { steps: [{ guid: first, previous_guid: null, step: "Kept" }] }),
    );
    // The new steps come on top of the kept first step, except where they replace it.
    const x = [guid(), guid(), guid()];
    const body = make(x).map((s) => (s.previous_guid === null ? { ...s, guid: first } : s));
    const refused = await api(
      emulator,
      steps,
      mei,
      json("POST", { steps: words === "multiple first steps" ? make(x) : body }),
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ status_code: 1, status_text: words });
    expect(emulator.admin.protocol(String(id))?.steps).toEqual([
      { guid: first, section: null, text: "Kept" },
    ]);
  });
});
