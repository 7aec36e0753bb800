// Any identifier a scientist pastes names the record (issue 38 item 5): the platform's id, the address of
// its page in the web app (the emulator's, and the real web app's form with a folder before it), or an
// entity's registry id, in every tool that takes an entity; and labdata_locate says in its schema what
// it needs (one required id: an entity or a container), so a call without it is refused by the schema.
import { describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { callText, useInMemoryClient } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv } from "../support/labdata.js";

const emulator = useLabdataEmulator();
const conn = useInMemoryClient(labdataService, () => apiKeyEnv(emulator.demo));
const call = (name: string, args: Record<string, unknown>) => callText(conn, name, args);
const json = async (name: string, args: Record<string, unknown>) =>
  JSON.parse((await call(name, { ...args, response_format: "json" })).text);
const demo = () => emulator.demo.registry;

/** The real web app's address of an entity: the tenant, its folder, the entity with its name, /edit. */
const webAppUrl = (id: string) =>
  `https://acme.benchling.com/acme/f/lib_K3x9Qa-cloning/${id}-pLKO-shRNA-3/edit`;

describe("an entity named as a scientist pastes it", () => {
  it("reads, exports and locates an entity by registry id and by either form of its page's address", async () => {
    const id = demo().shRnaPlasmids["pLKO-shRNA-3"] as string;
    const record = await json("labdata_get_entity", { id });
    expect(record).toMatchObject({ id, entityRegistryId: "PL09003" });
    expect(record.webURL).toMatch(/^https:\/\//);
    for (const pasted of ["PL09003", record.webURL, webAppUrl(id)]) {
      expect(await json("labdata_get_entity", { id: pasted }), pasted).toMatchObject({ id });
      const exported = await call("labdata_export_dna_sequence", { id: pasted, format: "genbank" });
      expect(exported.isError, exported.text).toBe(false);
      expect(exported.text, pasted).toMatch(/^LOCUS {7}pLKO-shRNA-3/);
      const located = await call("labdata_locate", { id: pasted });
      expect(located.text, pasted).toContain(`- **pLKO-shRNA-3 glycerol stock (${demo().glycerolStockId})**`);
    }
  });

  it("locates one container by its id (con_...) through the same field", async () => {
    const byId = await json("labdata_locate", { id: demo().glycerolStockId });
    expect(byId.located[0]).toMatchObject({ position: "C4" });
  });

  it("refuses an address that names no entity, and a registry id the registry does not know", async () => {
    expect(
      await call("labdata_get_entity", { id: "https://acme.benchling.com/acme/f/lib_K3x9Qa-cloning" }),
    ).toEqual({
      text: "Error: Invalid input for labdata_get_entity: id: the address does not name an entity; give its id or the address of its page. Correct the arguments and call the tool again.",
      isError: true,
    });
    expect(await call("labdata_export_dna_sequence", { id: "PL99999" })).toEqual({
      text: "Error: Resource not found. Please check the ID is correct.",
      isError: true,
    });
  });
});

describe("entries and folders named by their pages' addresses", () => {
  it("reads an entry, lists a folder's entries and entities, and finds a run by its entry", async () => {
    const folders = await json("labdata_list_folders", { limit: 100 });
    const folder = folders.folders.find((f: { name: string }) => f.name === "Backbones");
    const folderUrl = `https://acme.benchling.com/acme/f/${folder.id}-backbones`;
    const byId = await json("labdata_list_entries", { folder_id: folder.id });
    expect(byId.entries.length).toBeGreaterThan(0);
    expect(await json("labdata_list_entries", { folder_id: folderUrl })).toEqual(byId);
    const entities = await json("labdata_list_entities", { folder_id: folder.id });
    expect(await json("labdata_list_entities", { folder_id: folderUrl })).toEqual(entities);

    const entry = byId.entries[0];
    const pages = [`https://acme.benchling.com/acme/f/${folder.id}-backbones/${entry.id}-notes/edit`];
    if (entry.webURL) pages.push(entry.webURL);
    for (const page of pages) {
      expect(await json("labdata_get_entry", { id: page }), page).toMatchObject({ id: entry.id });
      const runs = await call("labdata_list_assay_runs", { entry_id: page });
      expect(runs.isError, runs.text).toBe(false);
    }
    expect(await call("labdata_get_entry", { id: folderUrl })).toEqual({
      text: "Error: Invalid input for labdata_get_entry: id: the address does not name a notebook entry; give its id or the address of its page. Correct the arguments and call the tool again.",
      isError: true,
    });
  });

  it("takes a registry id where a list filters by entity", async () => {
    const id = demo().shRnaPlasmids["pLKO-shRNA-3"] as string;
    const byId = await json("labdata_list_containers", { entity_id: id });
    expect(byId.containers.length).toBeGreaterThan(0);
    expect(await json("labdata_list_containers", { entity_id: "PL09003" })).toEqual(byId);
    expect(await json("labdata_list_assay_results", { entity_id: "PL09003" })).toEqual(
      await json("labdata_list_assay_results", { entity_id: id }),
    );
  });
});

describe("labdata_locate's declared need", () => {
  it("requires its one id in the schema, and refuses a call without it before any request", async () => {
    const { tools } = await conn.client.listTools();
    const locate = tools.find((tool) => tool.name === "labdata_locate");
    expect(locate?.inputSchema.required).toEqual(["id"]);
    const before = emulator.requests.entries().length;
    const refused = await call("labdata_locate", {});
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^Error: Invalid input for labdata_locate: id/);
    expect(emulator.requests.entries().length).toBe(before);
  });
});
