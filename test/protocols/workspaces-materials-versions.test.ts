// The reading tools beside search and get, with the demo application's client token
// (its owner is ada-okafor) against the emulator in its recorded dialect: every protocol of the user
// (user_all), bookmarks, workspaces and their public protocols, materials as a table, versions, a
// protocol by DOI in any written form, and the PDF's view options changing what the PDF holds.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { type Connected, callJson, callText, connectInMemory } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import { clientTokenEnv } from "../support/protocols.js";
import { pdfText } from "./pdf-text.js";

const emulator = useProtocolsEmulator();
let conn: Connected;
let versioned: { id: number; uri: string; doi: string };
let bookmarked: number;
beforeAll(async () => {
  conn = await connectInMemory(protocolsService, clientTokenEnv(emulator));
  const made = emulator.admin.createProtocol({
    title: "Reading probe: Bradford assay",
    creator: "ada-okafor",
    public: true,
    versionCount: 3,
    description: "Protein concentration by Coomassie binding.",
    guidelines: "Read within an hour.",
    materials: [
      { name: "Bradford reagent", vendor: "Bio-Rad", sku: "5000006", amount: "1 mL per sample" },
      { name: "BSA standard | 2 mg/mL", vendor: "Thermo Fisher", sku: "23209" },
    ],
    steps: [
      { step: "Mix 5 µL sample with 250 µL reagent.", section: "Assay" },
      "Run `plate-reader --read 595` after 5 min.",
    ],
    bookmarkedBy: ["ada-okafor"],
  });
  versioned = {
    id: made.id,
    uri: made.uri,
    doi: String(made.doi)
      .replace(/^dx\.doi\.org\//, "")
      .replace(/\/v\d+$/, ""),
  };
  bookmarked = made.id;
});
afterAll(async () => {
  await conn.close();
});

async function direct<T>(path: string): Promise<T> {
  const response = await fetch(`${emulator.url}${path}`, {
    headers: { authorization: `Bearer ${emulator.demo.clientAccessToken}` },
  });
  return (await response.json()) as T;
}

describe("protocols_list_my_protocols which=with_drafts", () => {
  it("lists drafts, private and published protocols of the user together, bookmarks marked", async () => {
    const draft = emulator.admin.createProtocol({
      title: "Reading probe: my draft",
      creator: "ada-okafor",
      public: false,
    });
    const totals = await Promise.all(
      ["user_private", "user_public"].map((filter) =>
        direct<{ pagination: { total_results: number } }>(`/api/v3/protocols?filter=${filter}&page_size=1`),
      ),
    );
    const page = await callJson<{ total: number; protocols: Array<{ id: number; is_bookmarked?: boolean }> }>(
      conn,
      "protocols_list_my_protocols",
      { which: "with_drafts", limit: 100 },
    );
    expect(page.total).toBe(totals.reduce((n, t) => n + t.pagination.total_results, 0));
    const ids = page.protocols.map((p) => p.id);
    expect(ids).toContain(draft.id);
    expect(ids).toContain(versioned.id);
    expect(page.protocols.find((p) => p.id === bookmarked)?.is_bookmarked).toBe(true);
    const text = (await callText(conn, "protocols_list_my_protocols", { which: "with_drafts", limit: 100 }))
      .text;
    expect(text).toMatch(
      new RegExp(`Reading probe: Bradford assay \\(${bookmarked}\\)\\*\\*: .*bookmarked by you`),
    );
    expect(text).not.toMatch(/undefined|null|\[object Object\]/);
  });
});

describe("workspaces", () => {
  it("lists the user's workspaces with members and role, and every workspace by name", async () => {
    const mine = await callJson<{
      total: number;
      workspaces: Array<{ title: string; members: number; is_owner: boolean }>;
    }>(conn, "protocols_list_workspaces");
    expect(mine.workspaces).toEqual([
      expect.objectContaining({ title: "Okafor Lab", members: 2, is_owner: true }),
    ]);
    expect((await callText(conn, "protocols_list_workspaces")).text).toMatch(
      /^- \*\*Okafor Lab \(1\)\*\*: 2 members; you own it; uri okafor-lab-/m,
    );
    const all = await callJson<{ workspaces: Array<{ title: string; is_member?: boolean }> }>(
      conn,
      "protocols_list_workspaces",
      {
        which: "all",
        keyword: "plant",
      },
    );
    expect(all.workspaces).toEqual([
      expect.objectContaining({ title: "Plant Sciences Core Facility", is_member: false }),
    ]);
  });

  it("lists a workspace's published protocols and leaves its private ones out", async () => {
    const published = await direct<{ items: Array<{ id: number }> }>(
      "/api/v3/protocols?filter=public&page_size=2",
    );
    const hidden = emulator.admin.createProtocol({
      title: "Reading probe: lab secret",
      creator: "ada-okafor",
      public: false,
    });
    const workspace = emulator.admin.createWorkspace({
      title: "Reading probe workspace",
      members: ["ada-okafor", "kwame-asante"],
      protocolIds: [...published.items.map((p) => p.id), hidden.id],
    });
    const page = await callJson<{ total: number; protocols: Array<{ id: number }> }>(
      conn,
      "protocols_list_workspaces",
      {
        workspace: workspace.uri,
      },
    );
    expect(page.total).toBe(2);
    expect(page.protocols.map((p) => p.id).sort()).toEqual(published.items.map((p) => p.id).sort());
    expect(await callText(conn, "protocols_list_workspaces", { workspace: "no-such-workspace" })).toEqual({
      isError: true,
      text: "Error: Resource not found. Please check the ID is correct.",
    });
  });
});

describe("protocols_get_protocol part=materials", () => {
  it("gives name, vendor, catalogue number and amount as a table", async () => {
    const { text } = await callText(conn, "protocols_get_protocol", {
      part: "materials",
      protocol: versioned.id,
    });
    expect(text.split("\n").slice(-4)).toEqual([
      "| Name | Vendor | Catalogue no. | Amount |",
      "| --- | --- | --- | --- |",
      "| Bradford reagent | Bio-Rad | 5000006 | 1 mL per sample |",
      "| BSA standard \\| 2 mg/mL | Thermo Fisher | 23209 | — |",
    ]);
    const data = await callJson<{ materials: unknown[] }>(conn, "protocols_get_protocol", {
      part: "materials",
      protocol: versioned.uri,
    });
    expect(data.materials).toEqual([
      { name: "Bradford reagent", vendor: "Bio-Rad", sku: "5000006", amount: "1 mL per sample" },
      { name: "BSA standard | 2 mg/mL", vendor: "Thermo Fisher", sku: "23209" },
    ]);
  });
});

describe("versions and DOIs", () => {
  it("lists the versions with their DOIs, and reads an exact version or the latest", async () => {
    const listed = await callJson<{
      current_version: number;
      versions: Array<{ version_id: number; doi: string; protocol: string }>;
    }>(conn, "protocols_get_protocol", { part: "versions", protocol: versioned.id });
    expect(listed.current_version).toBe(3);
    expect(listed.versions.map((v) => [v.version_id, v.doi, v.protocol])).toEqual(
      [1, 2, 3].map((n) => [n, `${versioned.doi}/v${n}`, `${versioned.id}/v${n}`]),
    );
    const second = await callJson<{ version_id: number; doi: string }>(conn, "protocols_get_protocol", {
      protocol: `${versioned.id}/v2`,
    });
    expect(second).toMatchObject({ version_id: 2, doi: `${versioned.doi}/v2` });
    const latest = await callJson<{ version_id: number }>(conn, "protocols_get_protocol", {
      protocol: `${versioned.uri}/latest`,
    });
    expect(latest.version_id).toBe(3);
    expect((await callText(conn, "protocols_get_protocol", { protocol: `${versioned.id}/v9` })).text).toBe(
      "Error: Resource not found. Please check the ID is correct.",
    );
  });

  it("finds a protocol by its DOI in every written form, and by its page's address", async () => {
    const name = versioned.doi.replace(/^10\.17504\//, "");
    for (const form of [
      `https://www.protocols.io/view/${versioned.uri}`,
      `https://www.protocols.io/view/${versioned.uri}/v1?version_warning=no`,
      `protocols.io/view/${versioned.uri}/`,
      versioned.doi,
      `https://doi.org/${versioned.doi}`,
      `http://dx.doi.org/${versioned.doi}`,
      `dx.doi.org/${versioned.doi}`,
      `doi:${versioned.doi}`,
      name,
      name.toUpperCase(),
      `https://doi.org/${versioned.doi}/v1`,
    ]) {
      const record = await callJson<{ id: number }>(conn, "protocols_get_protocol", { protocol: form });
      expect(record.id, form).toBe(versioned.id);
    }
    const steps = await callJson<{ total: number }>(conn, "protocols_get_protocol", {
      part: "steps",
      protocol: `doi:${versioned.doi}`,
    });
    expect(steps.total).toBe(2);
    const refused = await callText(conn, "protocols_get_protocol", {
      protocol: `https://doi.org/${versioned.doi}/../x`,
    });
    expect(refused.text).toMatch(
      /^Error: Invalid input for protocols_get_protocol: protocol: must be a protocol id/,
    );
  });
});

describe("protocols_download_pdf view options", () => {
  it("changes what the PDF holds: all, compact, the materials only, the commands only", async () => {
    const download = async (args: Record<string, unknown>) => {
      const saved = await callJson<{ path: string; view?: string }>(conn, "protocols_download_pdf", {
        protocol: versioned.id,
        ...args,
      });
      return { ...saved, text: pdfText(readFileSync(saved.path)) };
    };
    const full = await download({});
    expect(full.view).toBeUndefined();
    for (const part of [
      "Protein concentration by Coomassie",
      "Read within an hour",
      "Bradford reagent",
      "Mix 5 µL sample",
    ]) {
      expect(full.text).toContain(part);
    }
    const compact = await download({ compact_view: true });
    expect(compact.view).toBe("the whole protocol, compact");
    expect(compact.text).not.toContain("Protein concentration by Coomassie");
    expect(compact.text).toContain("Mix 5 µL sample");
    const materials = await download({ only: "materials" });
    expect(materials.view).toBe("the materials only");
    expect(materials.text).toContain("Bradford reagent (1 mL per sample)");
    expect(materials.text).not.toContain("Mix 5 µL sample");
    const commands = await download({ only: "commands" });
    expect(commands.text).toContain("Step 2: plate-reader --read 595");
    expect(commands.text).not.toContain("Bradford reagent");
    expect(new Set([full.path, compact.path, materials.path, commands.path]).size).toBe(4);
    const asked = emulator.requests
      .entries()
      .filter((entry) => entry.path.endsWith(".pdf"))
      .map((entry) => entry.query);
    expect(asked.slice(-4)).toEqual([
      {},
      { compact_view: "1" },
      { only_materials: "1" },
      { only_commands: "1" },
    ]);
  });
});
