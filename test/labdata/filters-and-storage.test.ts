// The filters a scientist's questions need, through a real MCP client against the emulator's demo data:
// lists by creation date and creator ("how many DNA sequences were created in May?", "what runs did I
// create last week?"), and a storage found by name with what it holds and where it is ("what is in
// the -80 °C Freezer A?").
import { describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { callJson, callText, useInMemoryClient } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv, servedEndingWith } from "../support/labdata.js";

const emulator = useLabdataEmulator();
const conn = useInMemoryClient(labdataService, () => apiKeyEnv(emulator.demo));
const call = (name: string, args: Record<string, unknown> = {}) => callText(conn, name, args);
// biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the tool answered
const json = (name: string, args: Record<string, unknown> = {}) => callJson<any>(conn, name, args);

/** Every record of a list, paged through (bounded). */
async function everything(tool: string, key: string, args: Record<string, unknown>) {
  const items: Array<Record<string, unknown>> = [];
  for (let offset = 0; offset < 3000; offset += 100) {
    const page = await json(tool, { ...args, limit: 100, offset });
    items.push(...page[key]);
    if (!page.has_more) break;
  }
  return items;
}

describe("created and creator", () => {
  it("count a folder's DNA sequences created in a month, a day range or since a day, as the records say", async () => {
    const folder_id = emulator.demo.folders.Backbones;
    const all = await everything("labdata_list_entities", "entities", { folder_id });
    expect(all.length).toBeGreaterThan(20);
    const months = all.map((s) => String(s.createdAt).slice(0, 7)).sort();
    const month = months[Math.floor(months.length / 2)] as string;
    const inMonth = all.filter((s) => String(s.createdAt).startsWith(month)).length;
    const { text } = await call("labdata_list_entities", { folder_id, created: month });
    expect(text).toContain(`Found ${inMonth} sequences`);
    // Asked by creation date, each line says when it was created (not when it was last changed).
    const lines = text.split("\n").filter((line) => line.startsWith("- **"));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(new RegExp(`created ${month}-\\d\\d \\d\\d:\\d\\d UTC`));
    const customs = await call("labdata_list_entities", {
      type: "custom_entity",
      created: "2000..",
      limit: 2,
    });
    expect(customs.text).toMatch(/^- \*\*.*, created \d{4}-\d\d-\d\d \d\d:\d\d UTC/m);
    const page = await json("labdata_list_entities", { folder_id, created: month, limit: 100 });
    expect(page.total).toBe(inMonth);
    for (const s of page.entities) expect(String(s.createdAt).startsWith(month)).toBe(true);
    const [first, last] = [`${month}-01`, `${month}-10`];
    const span = await json("labdata_list_entities", { folder_id, created: `${first}..${last}` });
    expect(span.total).toBe(
      all.filter((s) => String(s.createdAt).slice(0, 10) >= first && String(s.createdAt).slice(0, 10) <= last)
        .length,
    );
    const until = await json("labdata_list_entities", { folder_id, created: `..${last}` });
    expect(until.total).toBe(all.filter((s) => String(s.createdAt).slice(0, 10) <= last).length);
    const year = month.slice(0, 4);
    const inYear = await json("labdata_list_entities", { folder_id, created: year });
    expect(inYear.total).toBe(all.filter((s) => String(s.createdAt).startsWith(year)).length);
    const since = await json("labdata_list_entities", { folder_id, created: `${first}..` });
    expect(since.total).toBe(all.filter((s) => String(s.createdAt).slice(0, 10) >= first).length);
  });

  it("filter entities and containers by creator: 'me' or a user id", async () => {
    const mine = await json("labdata_list_entities", { type: "custom_entity", creator: "me", limit: 100 });
    const all = await everything("labdata_list_entities", "entities", { type: "custom_entity" });
    const me = (await json("labdata_get_current_user")).id;
    const expected = all.filter((e) => (e.creator as { id?: string } | null)?.id === me).length;
    expect(mine.total).toBe(expected);
    const other = all.find((e) => (e.creator as { id?: string } | null)?.id !== me);
    if (other) {
      const theirs = await json("labdata_list_entities", {
        type: "custom_entity",
        creator: (other.creator as { id: string }).id,
        limit: 100,
      });
      expect(theirs.entities.map((e: { id: string }) => e.id)).toContain(other.id);
    }
    const containers = await everything("labdata_list_containers", "containers", {});
    const someone = (containers[0] as { creator: { id: string } }).creator.id;
    const byThem = await json("labdata_list_containers", { creator: someone, limit: 100 });
    expect(byThem.total).toBe(containers.filter((c) => (c.creator as { id: string }).id === someone).length);
    // A user who created nothing: the filter reaches the platform, it is not ignored.
    expect((await json("labdata_list_containers", { creator: "ent_nobody" })).total).toBe(0);
    expect((await json("labdata_list_entities", { creator: "ent_nobody" })).total).toBe(0);
    const month = String(containers[0]?.createdAt).slice(0, 7);
    const inMonth = await json("labdata_list_containers", { created: month, limit: 100 });
    expect(inMonth.total).toBe(containers.filter((c) => String(c.createdAt).startsWith(month)).length);
  });

  it("list the runs a person created in a week, saying who created each", async () => {
    const runs = await everything("labdata_list_assay_runs", "assay_runs", {});
    const run = runs[0] as { creator: { id: string; name: string }; createdAt: string };
    const day = run.createdAt.slice(0, 10);
    const byThem = await json("labdata_list_assay_runs", {
      creator: run.creator.id,
      created: `${day}..${day}`,
    });
    const expected = runs.filter(
      (r) => (r.creator as { id: string }).id === run.creator.id && String(r.createdAt).startsWith(day),
    );
    expect(byThem.total).toBe(expected.length);
    const { text } = await call("labdata_list_assay_runs", { creator: run.creator.id, created: day });
    expect(text).toContain(run.creator.name);
    expect(text).toMatch(expected.length > 1 ? /^- \*\*Created by\*\*: /m : /\| Created by \|/);
  });

  it("take the creator by handle, whole name or a part of it, as the platform's users list finds them", async () => {
    const runs = await everything("labdata_list_assay_runs", "assay_runs", {});
    const dana = emulator.demo.admin;
    expect(dana.name).toBe("Dana Whitfield");
    const hers = runs.filter((r) => (r.creator as { id: string }).id === dana.id).length;
    expect(hers).toBeGreaterThan(0);
    for (const creator of [dana.id, dana.handle, "Dana Whitfield", "whitfield"]) {
      expect((await json("labdata_list_assay_runs", { creator, limit: 100 })).total, creator).toBe(hers);
    }
    expect(await call("labdata_list_assay_runs", { creator: "Nobody Atall" })).toEqual({
      isError: true,
      text: "Error: Invalid input for labdata_list_assay_runs: creator: nobody you may see has the handle or name 'Nobody Atall'. Give 'me', a user id or a name.",
    });
    const several = await call("labdata_list_entities", { creator: "a" });
    expect(several.isError).toBe(true);
    expect(several.text).toMatch(
      /^Error: Invalid input for labdata_list_entities: creator: 'a' names \d+( or more)? people: .*Dana Whitfield \(ent_\w+\) @[\w.-]+.*\. Give one's id\.$/,
    );
  });

  it("refuse a date that does not exist or a backwards range before any request", async () => {
    const before = servedEndingWith(emulator, "/dna-sequences");
    expect(await call("labdata_list_entities", { created: "2026-02-30" })).toEqual({
      text: "Error: Invalid input for labdata_list_entities: created: give a day, a month or first..last with first not after last, e.g. 2026-05-01..2026-05-31. Correct the arguments and call the tool again.",
      isError: true,
    });
    expect((await call("labdata_list_entities", { created: "2026-06-01..2026-05-01" })).isError).toBe(true);
    expect((await call("labdata_list_assay_runs", { created: "last week" })).isError).toBe(true);
    expect((await call("labdata_list_entities", { created: "0099-01" })).isError).toBe(true);
    expect(servedEndingWith(emulator, "/dna-sequences")).toBe(before);
  });
});

describe("a storage by name", () => {
  it("answers 'what is in the -80 °C Freezer A?' in one call: its shelves, racks and boxes, each with its place", async () => {
    const { text, isError } = await call("labdata_get_box_contents", { id: "-80 °C Freezer A" });
    expect(isError).toBe(false);
    expect(text).toMatch(/^# Location -80 °C Freezer A \(loc_\w+\)$/m);
    expect(text).toMatch(/^Where: Lab 3\.14 \(loc_\w+\) \[Room\]$/m);
    expect(text).toMatch(/^- \*\*Freezer A Shelf 2 \(loc_\w+\)\*\* \[Shelf\]$/m);
    expect(text).toMatch(
      /^- \*\*Glycerol stocks GS-1 \(box_\w+\)\*\* \[.+\] in Freezer A Rack B → Freezer A Shelf 2: 4 of \d+ positions filled$/m,
    );
    // Six containers: each listed under its box, so the one call answers what is in the freezer.
    expect(text).toContain("6 containers in all, each under its box or plate below.");
    expect(text).toMatch(
      /4 of \d+ positions filled\n {2}- \*\*pLKO-shRNA-1 glycerol stock \(con_\w+\)\*\*: 1 mL, Glycerol Stock, holds pLKO-shRNA-1 \(seq_\w+\), barcode CT-00001$/m,
    );
    expect(text).toMatch(/^ {2}- \*\*His6-TEV-SpCas9 aliquot 1 \(con_\w+\)\*\*/m);
    expect(text).not.toMatch(/undefined|null|\[object Object\]/);
    const byId = await json("labdata_get_box_contents", {
      id: emulator.demo.registry.locations["-80 °C Freezer A"],
      response_format: "json",
    });
    expect(byId.inside.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining(["Freezer A Shelf 2", "Glycerol stocks GS-1"]),
    );
  });

  it("a box says where it is; a name that is part of several names is refused with the candidates", async () => {
    const { text } = await call("labdata_get_box_contents", { id: emulator.demo.registry.glycerolBoxId });
    expect(text).toMatch(
      /^Where: Freezer A Rack B \(loc_\w+\) \[Rack\] → Freezer A Shelf 2 \(loc_\w+\) \[Shelf\] → -80 °C Freezer A \(loc_\w+\) \[Freezer\] → Lab 3\.14 \(loc_\w+\) \[Room\]$/m,
    );
    const many = await call("labdata_get_box_contents", { id: "Freezer" });
    expect(many.isError).toBe(true);
    expect(many.text).toMatch(
      /^Error: Invalid input for labdata_get_box_contents: id: 'Freezer' names \d+ storages; give one's id: /,
    );
    expect(await call("labdata_get_box_contents", { id: "Freezer Z" })).toEqual({
      text: "Error: Invalid input for labdata_get_box_contents: id: no location, box or plate you may see is named 'Freezer Z'.",
      isError: true,
    });
  });
});

describe("fields", () => {
  it("cut each record of a json answer to the keys asked for, the envelope whole; fields alone means json", async () => {
    const page = await json("labdata_list_entities", { fields: ["id", "name", "createdAt"], limit: 3 });
    expect(Object.keys(page).sort()).toEqual(
      ["count", "entities", "has_more", "next_offset", "offset", "total", "total_is_exact"].sort(),
    );
    for (const record of page.entities) expect(Object.keys(record)).toEqual(["id", "name", "createdAt"]);
    const runs = await json("labdata_list_assay_runs", { fields: ["id", "creator"], limit: 2 });
    expect(runs.schemas.length).toBeGreaterThan(0);
    for (const run of runs.assay_runs) expect(Object.keys(run)).toEqual(["id", "creator"]);
    const results = await json("labdata_list_assay_results", { run: "12", fields: ["fields"] });
    for (const result of results.assay_results) expect(Object.keys(result)).toEqual(["fields"]);
    const entity = await json("labdata_get_entity", {
      id: emulator.demo.registry.shRnaPlasmids["pLKO-shRNA-3"],
      fields: ["entityRegistryId", "name"],
    });
    expect(entity).toEqual({ entityRegistryId: "PL09003", name: "pLKO-shRNA-3" });
  });

  it("refuse an unknown field name before any request, naming the allowed ones", async () => {
    const before = servedEndingWith(emulator, "/dna-sequences");
    const { text, isError } = await call("labdata_list_entities", { fields: ["id", "nmae"] });
    expect(isError).toBe(true);
    expect(text).toMatch(
      /^Error: Invalid input for labdata_list_entities: fields: unknown field 'nmae' \(allowed: aliases, .*\bcreatedAt\b.*, webURL\)\. Correct the arguments and call the tool again\.$/,
    );
    expect(servedEndingWith(emulator, "/dna-sequences")).toBe(before);
  });
});

describe("requests by creation date", () => {
  it("keep only the requests created in the span", async () => {
    const all = await everything("labdata_list_requests", "requests", { assignee: "anyone", status: "any" });
    expect(all.length).toBeGreaterThan(1);
    const day = String(all[0]?.createdAt).slice(0, 10);
    const onDay = await json("labdata_list_requests", { assignee: "anyone", status: "any", created: day });
    expect(onDay.total).toBe(all.filter((r) => String(r.createdAt).startsWith(day)).length);
    expect(onDay.total).toBeLessThan(all.length);
  });
});

describe("pasted addresses of runs and storage", () => {
  it("take a run's address where a run is asked for, and a box's or location's page for a storage", async () => {
    const { baseUrl, notebook, registry } = emulator.demo;
    const address = `${baseUrl}/api/v2/assay-runs/${notebook.run12Id}`;
    const results = await call("labdata_list_assay_results", { run: address });
    expect(results.text).toContain(`Run: NGS Amplicon Run 12 (${notebook.run12Id})`);
    expect(results.text).toContain("Found 6 results");
    const runs = await json("labdata_list_assay_runs", { run: address });
    expect(runs.assay_runs.map((r: { id: string }) => r.id)).toEqual([notebook.run12Id]);
    const box = await call("labdata_get_box_contents", { id: `${baseUrl}/boxes/${registry.glycerolBoxId}` });
    expect(box.text).toMatch(/^# Box Glycerol stocks GS-1 \(box_\w+\)$/m);
    const freezer = registry.locations["-80 °C Freezer A"];
    const location = await call("labdata_get_box_contents", { id: `${baseUrl}/locations/${freezer}` });
    expect(location.text).toMatch(/^# Location -80 °C Freezer A/m);
    expect(await call("labdata_list_assay_results", { run: `${baseUrl}/acme/f/lib_abc-folder` })).toEqual({
      text: "Error: Invalid input for labdata_list_assay_results: run: the address does not name an assay run; give its number or id. Correct the arguments and call the tool again.",
      isError: true,
    });
  });
});

describe("tasks by creator", () => {
  it("keep the tasks a person created, assigned to anyone unless said", async () => {
    const all = await everything("labdata_list_tasks", "tasks", { assignee: "anyone", status: "any" });
    const creator = (all[0] as { creator: { id: string } }).creator.id;
    const theirs = await json("labdata_list_tasks", { creator, status: "any", limit: 100 });
    expect(theirs.total).toBe(all.filter((t) => (t.creator as { id: string }).id === creator).length);
    expect((await json("labdata_list_tasks", { creator: "ent_nobody", status: "any" })).total).toBe(0);
    const { text } = await call("labdata_list_tasks", { creator: "me", status: "any" });
    expect(text).toMatch(/^(# Tasks created by you|No tasks created by you\.)$/m);
  });
});

describe("people and entities by name, where an id is taken", () => {
  it("take an assignee, a requester or an author by name as by id", async () => {
    const dana = emulator.demo.admin;
    const mira = emulator.demo.user;
    for (const [tool, key, args] of [
      ["labdata_list_requests", "requests", { requested_by: dana.id, status: "any" }],
      ["labdata_list_tasks", "tasks", { assignee: mira.id, status: "any" }],
      ["labdata_list_requests", "requests", { assignee: mira.id, status: "any" }],
      ["labdata_list_entries", "entries", { author: mira.id }],
    ] as const) {
      const field = Object.keys(args)[0] as keyof typeof args;
      const byId = await json(tool, { ...args, limit: 100 });
      const byName = await json(tool, {
        ...args,
        [field]: args[field] === dana.id ? dana.name : mira.name,
        limit: 100,
      });
      expect(byName.total, `${tool} ${String(field)}`).toBe(byId.total);
      expect(byName[key].map((item: { id: string }) => item.id)).toEqual(
        byId[key].map((item: { id: string }) => item.id),
      );
    }
    expect(await call("labdata_list_requests", { requested_by: "Nobody Atall" })).toEqual({
      isError: true,
      text: "Error: Invalid input for labdata_list_requests: requested_by: nobody you may see has the handle or name 'Nobody Atall'. Give 'me', a user id or a name.",
    });
  });

  it("locate a stock by its entity's exact name, and say what to do with a name nobody has", async () => {
    const { text, isError } = await call("labdata_locate", { id: "pLKO-shRNA-3" });
    expect(isError).toBe(false);
    expect(text).toContain("pLKO-shRNA-3 glycerol stock");
    expect(text).toMatch(/Glycerol stocks GS-1 .* → -80 °C Freezer A/);
    expect(await call("labdata_locate", { id: "pLKO-shRNA-99" })).toEqual({
      isError: true,
      text: "Error: No entity you may see is named exactly 'pLKO-shRNA-99'. Find it with labdata_search_entities (a part of its name), then give its id or registry id",
    });
  });
});
