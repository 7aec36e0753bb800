// The emulator's read endpoints beside search (fact sheet §4.1, §5.4, §8, §9): materials as recorded
// reagent objects, a researcher's protocols (user_all only for oneself), workspaces as recorded group
// objects, exact versions, and the PDF view options.
import { beforeAll, describe, expect, it } from "vitest";
import { pdfText } from "../../protocols/pdf-text.js";
import { useProtocolsEmulator } from "../../support/emulator.js";
import { api, clientTokenOf } from "../../support/protocols-http.js";

const emulator = useProtocolsEmulator({ dialect: "recorded" });
let mei: string;
let tomas: string;
let probe: { id: number; uri: string };
beforeAll(async () => {
  mei = clientTokenOf(emulator, "mei-chen");
  tomas = clientTokenOf(emulator, "tomas-garcia");
  probe = emulator.admin.createProtocol({
    title: "Endpoint probe",
    creator: "mei-chen",
    public: true,
    versionCount: 2,
    description: "An abstract only the full view prints.",
    materials: [{ name: "Agarose", vendor: "Lonza", sku: "50004", amount: "1 g" }],
    steps: [{ step: "Melt the agarose.", section: "Gel" }, "Run `gel-imager --expose 2`."],
  });
});

describe("materials", () => {
  it("answers the v3 reagent objects: the vendor a user-like object, the catalogue number sku", async () => {
    const reply = await api<{ materials: Array<Record<string, unknown>>; status_code: number }>(
      emulator,
      `/api/v3/protocols/${probe.id}/materials`,
      tomas,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.materials).toEqual([
      expect.objectContaining({
        name: "Agarose",
        sku: "50004",
        amount: "1 g",
        vendor: expect.objectContaining({ name: "Lonza", username: null }),
        public: 1,
      }),
    ]);
  });
});

describe("a researcher's protocols", () => {
  it("user_all lists every kind of one's own, and is refused for anyone else's", async () => {
    const draft = emulator.admin.createProtocol({
      title: "Mei's private probe",
      creator: "mei-chen",
      public: false,
    });
    const own = await api<{ items: Array<{ id: number }> }>(
      emulator,
      "/api/v3/researchers/mei-chen/protocols?filter=user_all&page_size=100",
      mei,
    );
    expect(own.body.items.map((item) => item.id)).toEqual(expect.arrayContaining([draft.id, probe.id]));
    const others = await api(emulator, "/api/v3/researchers/mei-chen/protocols?filter=user_all", tomas);
    expect(others.status).toBe(403);
    expect(others.body).toEqual({
      status_code: 132,
      error_message: "filter user_all is only for your own protocols.",
    });
    const published = await api<{ items: Array<{ id: number }> }>(
      emulator,
      "/api/v3/researchers/mei-chen/protocols?page_size=100",
      tomas,
    );
    expect(published.body.items.map((item) => item.id)).toContain(probe.id);
    expect(published.body.items.map((item) => item.id)).not.toContain(draft.id);
  });
});

describe("workspaces", () => {
  it("answers recorded group objects, the caller's own with my_groups", async () => {
    const mine = await api<{ items: Array<Record<string, unknown>> }>(
      emulator,
      "/api/v3/workspaces?filter=my_groups",
      tomas,
    );
    expect(mine.body.items).toEqual([
      expect.objectContaining({
        title: "Plant Sciences Core Facility",
        is_member: 1,
        stats: expect.objectContaining({ total_members: 2 }),
        user_status: expect.objectContaining({ is_member: true, is_owner: false }),
      }),
    ]);
    const all = await api<{ items: unknown[] }>(emulator, "/api/v3/workspaces", tomas);
    expect(all.body.items).toHaveLength(2);
  });
});

describe("versions", () => {
  it("answers an exact version and the latest, and 404 for one that does not exist", async () => {
    const first = await api<{ payload: { version_id: number; doi: string } }>(
      emulator,
      `/api/v4/protocols/${probe.id}/v1`,
      mei,
    );
    expect(first.body.payload.version_id).toBe(1);
    expect(first.body.payload.doi).toMatch(/\/v1$/);
    const latest = await api<{ payload: { version_id: number } }>(
      emulator,
      `/api/v4/protocols/${probe.uri}/latest`,
      mei,
    );
    expect(latest.body.payload.version_id).toBe(2);
    expect((await api(emulator, `/api/v4/protocols/${probe.id}/v7`, mei)).status).toBe(404);
  });
});

describe("the PDF view options", () => {
  it("print the whole protocol, or the compact view, or one part", async () => {
    const pdf = async (query: string) => {
      const response = await fetch(`${emulator.url}/view/${probe.uri}.pdf${query}`, {
        headers: { authorization: `Bearer ${mei}` },
      });
      expect(response.status).toBe(200);
      return pdfText(new Uint8Array(await response.arrayBuffer()));
    };
    const full = await pdf("");
    expect(full).toContain("An abstract only the full view prints.");
    expect(full).toContain("Agarose (1 g)");
    expect(full).toContain("Melt the agarose.");
    expect(await pdf("?compact_view=1")).not.toContain("An abstract only");
    const steps = await pdf("?only_steps=1");
    expect(steps).toContain("Melt the agarose.");
    expect(steps).not.toContain("Agarose (1 g)");
    const materials = await pdf("?only_materials=true");
    expect(materials).toContain("Agarose (1 g)");
    expect(materials).not.toContain("Melt the agarose.");
    expect(await pdf("?only_commands=1")).toContain("Step 2: gel-imager --expose 2");
  });
});
