// The demo repository: a few hundred realistic protocols, identical for the same seed, with private ones
// per account; fresh random credentials on every start; and an empty emulator when the demo is off.
import { describe, expect, it } from "vitest";
import { demoProtocolDrafts } from "../../../packages/emulators/src/protocols/demo/protocol-drafts.js";
import { demoOf, startTestProtocols } from "../../support/emulator.js";
import { api, LEGACY, type ListBody, list } from "../../support/protocols-http.js";

describe("demo protocols", () => {
  const drafts = demoProtocolDrafts(7);

  it("are the same for the same seed and differ for another", () => {
    expect(demoProtocolDrafts(7)).toEqual(drafts);
    expect(demoProtocolDrafts(8)).not.toEqual(drafts);
  });

  it("are a few hundred, with realistic titles, 5 to 40 steps, materials, and some steps over 1,000 characters", () => {
    const publicOnes = drafts.filter((d) => d.isPublic);
    expect(publicOnes).toHaveLength(320);
    const titles = publicOnes.map((d) => d.title);
    expect(new Set(titles).size).toBe(320);
    expect(titles).toContain("RNA extraction from plant tissue with TRIzol");
    expect(titles).toContain("Western blot for phosphorylated ERK");
    for (const draft of drafts) {
      expect(draft.steps.length).toBeGreaterThanOrEqual(5);
      expect(draft.steps.length).toBeLessThanOrEqual(40);
      expect(draft.materials?.length).toBeGreaterThan(0);
      expect(draft.description).not.toContain("{x}");
      for (const step of draft.steps) expect(step.text).not.toContain("{x}");
    }
    const longSteps = drafts.flatMap((d) => d.steps).filter((s) => s.text.length > 1000);
    expect(longSteps.length).toBeGreaterThan(50);
    const stepCounts = new Set(drafts.map((d) => d.steps.length));
    expect(stepCounts.size).toBeGreaterThan(25);
  });

  it("give every demo account five private protocols, the first shared with the next account", () => {
    const privateOnes = drafts.filter((d) => !d.isPublic);
    const byCreator = new Map<string, number>();
    for (const draft of privateOnes) byCreator.set(draft.creator, (byCreator.get(draft.creator) ?? 0) + 1);
    expect([...byCreator.values()]).toEqual([5, 5, 5, 5, 5, 5]);
    expect(privateOnes.filter((d) => (d.sharedWith ?? []).length > 0).length).toBeGreaterThanOrEqual(6);
  });
});

describe("demo emulator", () => {
  it("serves the same protocols for the same seed, with fresh credentials each start", async () => {
    const [first, second] = await Promise.all([
      startTestProtocols({ ...LEGACY, seed: 42 }),
      startTestProtocols({ ...LEGACY, seed: 42 }),
    ]);
    try {
      const query = "filter=public&order_field=id&order_dir=asc&page_size=100";
      const strip = (body: ListBody) => body.items.map(({ id, title, uri }) => ({ id, title, uri }));
      const one = await list(first, demoOf(first).clientAccessToken, query);
      const two = await list(second, demoOf(second).clientAccessToken, query);
      expect(strip(two)).toEqual(strip(one));
      expect(one.pagination.total_results).toBe(320);

      expect(demoOf(first).clientAccessToken).not.toBe(demoOf(second).clientAccessToken);
      expect(demoOf(first).application.clientSecret).not.toBe(demoOf(second).application.clientSecret);
      expect(demoOf(first).users.map((u) => u.password)).not.toEqual(
        demoOf(second).users.map((u) => u.password),
      );
      expect(demoOf(first).users.map((u) => u.username)).toEqual([
        "ada-okafor",
        "mei-chen",
        "tomas-garcia",
        "priya-natarajan",
        "ingrid-johansson",
        "kwame-asante",
      ]);
      expect(demoOf(first).application.redirectUri).toBe("http://127.0.0.1:8976/callback");
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it("starts empty with demo: false", async () => {
    const empty = await startTestProtocols({ ...LEGACY, demo: false });
    try {
      expect(empty.demo).toBeUndefined();
      expect(empty.admin.listUsers()).toEqual([]);
      empty.admin.createUser({ username: "solo" });
      const app = empty.admin.createApplication({ owner: "solo", redirectUri: "https://solo.example/cb" });
      const token = empty.admin.issueClientToken(app.clientId).accessToken;
      const body = await list(empty, token, "filter=public");
      expect(body.pagination.total_results).toBe(0);
      expect((await api(empty, "/api/v3/session/profile", token)).status).toBe(200);
    } finally {
      await empty.close();
    }
  });
});
