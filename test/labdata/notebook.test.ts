// The notebook tools of labdata_mcp (entries, templates, new entries) through a real MCP
// client against the lab data platform emulator and its demo notebook.
import { describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { type Connected, callJson, callText, useInMemoryClient } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv } from "../support/labdata.js";

const emulator = useLabdataEmulator();
const conn = useInMemoryClient(labdataService, () => apiKeyEnv(emulator.demo));
const call = (name: string, args: Record<string, unknown> = {}, connection: Connected = conn) =>
  callText(connection, name, args);
const json = (name: string, args: Record<string, unknown> = {}, connection: Connected = conn) =>
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the tool answered
  callJson<any>(connection, name, args);

describe("labdata_list_entries", () => {
  it("lists the entries you may read, newest change first, with the envelope", async () => {
    const page = await json("labdata_list_entries", { limit: 5 });
    expect(page).toMatchObject({ count: 5, offset: 0, has_more: true, next_offset: 5 });
    const times = page.entries.map((e: { modifiedAt: string }) => Date.parse(e.modifiedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(page.entries[0]).not.toHaveProperty("days");
    const { text } = await call("labdata_list_entries", { limit: 3 });
    expect(text.split("\n")[0]).toBe("# Notebook entries");
    expect(text).toMatch(/^Found \d+ entries \(showing 1–3\)$/m);
    expect(
      text.match(/^- \*\*.+ \(etr_\w+\)\*\*: EXP\d+; modified \d{4}-\d\d-\d\d \d\d:\d\d UTC; by /gm),
    ).toHaveLength(3);
    expect(text.endsWith("More: call again with offset=3.")).toBe(true);
  });

  it("pages without gaps or repeats", async () => {
    const all = await json("labdata_list_entries", { limit: 100 });
    const ids: string[] = [];
    for (let offset = 0; offset < all.total; offset += 7) {
      const page = await json("labdata_list_entries", { limit: 7, offset });
      ids.push(...page.entries.map((e: { id: string }) => e.id));
    }
    expect(ids).toEqual(all.entries.map((e: { id: string }) => e.id));
  });

  it("filters by name fragment, author 'me', project, folder and dates", async () => {
    const { user, projects, folders, notebook } = emulator.demo;
    const cas9 = await json("labdata_list_entries", {
      name: "cas9 SCREEN",
      author: "me",
      modified: "2025-06-23..2025-06-29",
    });
    expect(cas9.entries.map((e: { id: string }) => e.id)).toEqual([notebook.cas9ScreenEntryId]);
    const both = await json("labdata_list_entries", { name: "cas9 screen" });
    expect(both.total).toBe(2);
    const mine = await json("labdata_list_entries", { author: "me", limit: 100 });
    for (const entry of mine.entries)
      expect(entry.authors.map((a: { id: string }) => a.id)).toContain(user.id);
    const project = projects["Cas9 Engineering"] as string;
    const inProject = await json("labdata_list_entries", { project_id: project, limit: 100 });
    expect(inProject.total).toBeGreaterThan(10);
    const folder = folders["Guide RNAs"] as string;
    const inFolder = await json("labdata_list_entries", { folder_id: folder, limit: 100 });
    expect(inFolder.total).toBeGreaterThan(2);
    for (const entry of inFolder.entries) expect(entry.folderId).toBe(folder);
    expect(inFolder.total).toBeLessThan(inProject.total);
  });

  it("says so when nothing matches, and refuses a bad date without a request", async () => {
    expect((await call("labdata_list_entries", { name: "no-such-experiment" })).text).toBe(
      "No notebook entries match these filters.",
    );
    emulator.requests.clear();
    const bad = await call("labdata_list_entries", { modified: "2025-02-30" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("modified: give a day, a month or first..last");
    expect(await call("labdata_list_entries", { modified: "2025-06-30..2025-06-23" })).toEqual({
      text: "Error: Invalid input for labdata_list_entries: modified: give a day, a month or first..last with first not after last, e.g. 2026-05-01..2026-05-31. Correct the arguments and call the tool again.",
      isError: true,
    });
    expect(emulator.requests.count()).toBe(0);
  });
});

describe("labdata_get_entry", () => {
  it("renders days, text, tables, checklists, links and the run and results as Name (id)", async () => {
    const { notebook, user } = emulator.demo;
    const { text, isError } = await call("labdata_get_entry", { id: notebook.cas9ScreenEntryId });
    expect(isError).toBe(false);
    expect(text.split("\n")[0]).toBe(`# Cas9 screen – HEK293T guide panel (${notebook.cas9ScreenEntryId})`);
    expect(text).toContain(`- **Authors**: ${user.name} (${user.id})`);
    expect(text).toContain("## 2025-06-23: Transfection");
    expect(text).toContain("## 2025-06-26: Sequencing readout");
    expect(text).toContain("| Guide | Target | Well | Cells seeded |");
    expect(text).toMatch(/^\| .+ \(seq_\w+\) \| EMX1 \| A1 \| 2\.0e5 \|$/m);
    expect(text).toMatch(/^ {2}Linked: .+ \(seq_\w+\)$/m);
    expect(text).toContain("- [x] Transfected Cas9 RNP with Lipofectamine CRISPRMAX");
    expect(text).toContain("- [ ] Send the two best guides to Tom for the knockout line");
    expect(text).toContain(`Assay run: NGS Amplicon Run 12 (${notebook.run12Id})`);
    expect(text).toMatch(
      /Results table: Editing Efficiency \(assaysch_\w+\); read the results with labdata_list_assay_results\./,
    );
    expect(text).not.toMatch(/undefined|null|\[object Object\]/);
  });

  it("cuts a long entry between blocks, never inside a table, and reads on with offset", async () => {
    const id = emulator.demo.notebook.longEntryId;
    const first = (await call("labdata_get_entry", { id })).text;
    const cut =
      /\(Cut at character (\d+) of (\d+)\. Read on with labdata_get_entry id=\w+ offset=(\d+)\.\)$/.exec(
        first,
      );
    expect(cut).not.toBeNull();
    const [, at, total, next] = cut as RegExpExecArray;
    expect(next).toBe(at);
    expect(first.length).toBeLessThan(8300);
    let whole = first.slice(0, first.lastIndexOf("\n(Cut at"));
    let offset = Number(next);
    for (let i = 0; i < 10 && offset; i++) {
      const part = (await call("labdata_get_entry", { id, offset })).text;
      expect(part.startsWith(`(Continued from character ${offset} of ${total}.)`)).toBe(true);
      const body = part.slice(part.indexOf("\n") + 2);
      // Cut between blocks: a part never starts inside a table (or any block) of the one before.
      expect(body, `part at ${offset}`).not.toMatch(/^\|/);
      const more = /\(Cut at character (\d+) of/.exec(part);
      whole += `\n${more ? body.slice(0, body.lastIndexOf("\n(Cut at")) : body}`;
      offset = more ? Number(more[1]) : 0;
    }
    expect(offset).toBe(0);
    for (const day of ["Batch 7, plate 1", "Batch 7, plate 10"]) expect(whole).toContain(day);
    expect(whole.match(/^\| .+ \(seq_\w+\) \|/gm)).toHaveLength(120);
    const past = await call("labdata_get_entry", { id, offset: Number(total) + 5 });
    expect(past.text).toContain("is past its end");
  });

  it("gives the whole record as json, 404 for an unknown id, and the markdown resource", async () => {
    const id = emulator.demo.notebook.cas9ScreenEntryId;
    const record = await json("labdata_get_entry", { id });
    expect(record.days.map((d: { date: string }) => d.date)).toEqual([
      "2025-06-23",
      "2025-06-24",
      "2025-06-26",
    ]);
    expect(await call("labdata_get_entry", { id: "etr_doesnotexist" })).toEqual({
      text: "Error: Resource not found. Please check the ID is correct.",
      isError: true,
    });
    const { contents } = await conn.client.readResource({ uri: `labdata://entries/${id}` });
    expect((contents[0] as { text: string }).text).toBe((await call("labdata_get_entry", { id })).text);
  });
});

describe("labdata_list_entry_templates", () => {
  it("lists the templates you may use with their days, and filters by name", async () => {
    const { text } = await call("labdata_list_entry_templates");
    expect(text.split("\n")[0]).toBe("# Entry templates");
    expect(text).toMatch(
      /^- \*\*CRISPR screen \(tmpl_\w+\)\*\*: 3 days \(Transfection, Harvest, Readout\); collection tmplcol_\w+; modified/m,
    );
    const page = await json("labdata_list_entry_templates", { name: "miniprep" });
    expect(page.entry_templates.map((t: { name: string }) => t.name)).toEqual(["Miniprep and QC"]);
  });
});

describe("labdata_create_entry", () => {
  it("creates an entry from a template, in a folder the user may write to", async () => {
    const { folders, notebook, user } = emulator.demo;
    const folder = folders.Backbones as string;
    const created = await call("labdata_create_entry", {
      name: "Miniprep batch 8",
      folder_id: folder,
      template_id: notebook.templates["Miniprep and QC"],
    });
    expect(created.isError).toBe(false);
    const id = /\((etr_\w+)\)/.exec(created.text)?.[1] as string;
    expect(created.text.split("\n")[0]).toBe(
      `Created notebook entry Miniprep batch 8 (${id}) in folder ${folder} from template ${notebook.templates["Miniprep and QC"]}.`,
    );
    expect(created.text).toContain("- [ ] Glycerol stocks made");
    expect(created.text).toContain(`- **Authors**: ${user.name} (${user.id})`);
    expect((await call("labdata_get_entry", { id })).text).toContain("- [ ] Glycerol stocks made");
  });

  it("refuses to write where the user may only read (403), and bad input without a request", async () => {
    const { folders } = emulator.demo;
    // Mira reads Cas9 Engineering through her team but may not write there.
    expect(
      await call("labdata_create_entry", {
        name: "Not mine to write",
        folder_id: folders["Guide RNAs"] as string,
      }),
    ).toEqual({
      text: "Error: Permission denied. You don't have access to this resource.",
      isError: true,
    });
    emulator.requests.clear();
    const refused = await call("labdata_create_entry", { name: "x", folder_id: "../folders" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/^Error: Invalid input for labdata_create_entry: folder_id/);
    expect(emulator.requests.count()).toBe(0);
  });
});
