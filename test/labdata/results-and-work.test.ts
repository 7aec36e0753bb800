// labdata_mcp's assay runs and results and its workflow tasks through a real MCP client against the
// emulator's demo data; who sees what; the notebook, results and workflows toolsets alone; read-only.
import { describe, expect, it } from "vitest";
import type { DemoUser } from "../../packages/emulators/src/labdata/index.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import {
  type Connected,
  callJson,
  callText,
  connectInMemory,
  useInMemoryClient,
} from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv, servedEndingWith } from "../support/labdata.js";

const emulator = useLabdataEmulator();
const conn = useInMemoryClient(labdataService, () => apiKeyEnv(emulator.demo));
const call = (name: string, args: Record<string, unknown> = {}, connection: Connected = conn) =>
  callText(connection, name, args);
const json = (name: string, args: Record<string, unknown> = {}, connection: Connected = conn) =>
  // biome-ignore lint/suspicious/noExplicitAny: the tests read whatever JSON the tool answered
  callJson<any>(connection, name, args);
async function as<T>(user: DemoUser | Record<string, string>, use: (c: Connected) => Promise<T>): Promise<T> {
  const env =
    "apiKey" in user ? apiKeyEnv(emulator.demo, user as DemoUser) : (user as Record<string, string>);
  const connection = await connectInMemory(labdataService, env);
  try {
    return await use(connection);
  } finally {
    await connection.close();
  }
}

describe("labdata_list_assay_runs", () => {
  it("lists runs of every schema, with each schema's fields explained once, and finds run 12", async () => {
    const all = await json("labdata_list_assay_runs", { limit: 100 });
    expect(all.total).toBe(18);
    expect(all.schemas.map((s: { name: string }) => s.name).sort()).toEqual([
      "NGS Amplicon Run",
      "Plate Reader Run",
    ]);
    const { text } = await call("labdata_list_assay_runs", { run: "run 12" });
    expect(text).toMatch(/^## NGS Amplicon Run \(assaysch_\w+\)$/m);
    expect(text).toContain("- **Run number**: whole number, required");
    expect(text).toContain("| Run | Run number | Sequencer | Run date | Project | Created | Created by |");
    expect(text).toContain(`| ${emulator.demo.notebook.run12Id} | 12 | MiSeq M04211 | 2025-06-26 |`);
    expect(text.match(/^Fields:$/gm)).toHaveLength(1);
  });

  it("filters by schema, project, entry and dates, and pages", async () => {
    const { projects, notebook } = emulator.demo;
    const { assaySchemas } = notebook;
    const plate = await json("labdata_list_assay_runs", {
      schema_id: assaySchemas["Plate Reader Run"],
      limit: 4,
    });
    expect(plate).toMatchObject({ total: 9, count: 4, has_more: true, next_offset: 4 });
    const rest = await json("labdata_list_assay_runs", {
      schema_id: assaySchemas["Plate Reader Run"],
      offset: 4,
      limit: 10,
    });
    expect(rest.count).toBe(5);
    const cas9 = await json("labdata_list_assay_runs", {
      project_id: projects["Cas9 Engineering"],
      limit: 100,
    });
    expect(cas9.total).toBe(9);
    const fromEntry = await json("labdata_list_assay_runs", { entry_id: notebook.cas9ScreenEntryId });
    expect(fromEntry.assay_runs.map((r: { id: string }) => r.id)).toEqual([notebook.run12Id]);
    const lastWeek = await json("labdata_list_assay_runs", { created: "2025-06-23..2025-06-29" });
    expect(lastWeek.assay_runs.map((r: { id: string }) => r.id)).toContain(notebook.run12Id);
    for (const run of lastWeek.assay_runs) expect(run.createdAt >= "2025-06-23").toBe(true);
    expect((await call("labdata_list_assay_runs", { run: "999" })).text).toBe(
      "No assay runs match these filters.",
    );
    const before = servedEndingWith(emulator, "/assay-runs");
    const backwards = { created: "2025-07-01..2025-06-01" };
    expect(await call("labdata_list_assay_runs", backwards)).toEqual({
      text: "Error: Invalid input for labdata_list_assay_runs: created: give a day, a month or first..last with first not after last, e.g. 2026-05-01..2026-05-31. Correct the arguments and call the tool again.",
      isError: true,
    });
    expect((await call("labdata_list_assay_results", backwards)).text).toContain("created: give a day");
    expect(servedEndingWith(emulator, "/assay-runs")).toBe(before);
  });
});

describe("labdata_list_assay_results", () => {
  it("answers 'the results of run 12' in one call: what was measured, with units and the fields explained", async () => {
    const { text, isError } = await call("labdata_list_assay_results", { run: "12" });
    expect(isError).toBe(false);
    expect(text).toContain(`Run: NGS Amplicon Run 12 (${emulator.demo.notebook.run12Id})`);
    expect(text).toContain("Found 6 results (showing 1–6)");
    expect(text).toContain("- **Editing efficiency**: number in %, 1 decimal");
    // The table leads with what was measured: the run named once above it, no id column, the entity
    // and the units kept, the project every row shares said once.
    expect(text).toContain(
      "| Guide | Editing efficiency (%) | Indel frequency (%) | Reads aligned (reads) | Created |",
    );
    expect(text.match(/^\| .+ \(seq_\w+\) \| \d+(\.\d)? \| \d+(\.\d)? \| \d+ \|/gm)).toHaveLength(6);
    expect(text.split(emulator.demo.notebook.run12Id)).toHaveLength(2);
    expect(text).not.toMatch(/^\| [0-9a-f-]{36} \|/m);
    expect(text).toMatch(/^Every result below has:\n- \*\*Project\*\*: src_\w+$/m);
    expect(text).not.toMatch(/undefined|null|\[object Object\]/);
  });

  it("filters by schema, entity, project and dates; json carries the schemas and the run", async () => {
    const { projects, notebook } = emulator.demo;
    const { assaySchemas } = notebook;
    const byRun = await json("labdata_list_assay_results", { run: notebook.run12Id });
    expect(byRun.total).toBe(6);
    expect(byRun.runs.map((r: { id: string }) => r.id)).toEqual([notebook.run12Id]);
    expect(
      byRun.schemas[0].fieldDefinitions.find((f: { name: string }) => f.name === "Editing efficiency").unit
        .symbol,
    ).toBe("%");
    const yields = await json("labdata_list_assay_results", {
      schema_id: assaySchemas["Plasmid Yield"],
      limit: 10,
    });
    expect(yields).toMatchObject({ total: 54, count: 10, has_more: true, next_offset: 10 });
    const guide = byRun.assay_results[0].fields.Guide.value as string;
    const aboutGuide = await json("labdata_list_assay_results", { entity_id: guide, limit: 100 });
    expect(aboutGuide.total).toBeGreaterThanOrEqual(1);
    for (const result of aboutGuide.assay_results) expect(result.fields.Guide.value).toBe(guide);
    const cas9 = await json("labdata_list_assay_results", {
      project_id: projects["Cas9 Engineering"],
      limit: 100,
    });
    expect(cas9.total).toBe(54);
    const june26 = await json("labdata_list_assay_results", { created: "2025-06-26" });
    expect(june26.total).toBe(6);
    expect((await call("labdata_list_assay_results", { run: "run 99" })).text).toBe(
      "No assay run 'run 99' that you can see.",
    );
    const unknownId = "3c0c0000-0000-4000-a000-000000000000";
    expect((await call("labdata_list_assay_results", { run: unknownId })).text).toBe(
      `No assay run '${unknownId}' that you can see.`,
    );
  });
});

describe("labdata_list_tasks", () => {
  it("answers 'what tasks are assigned to me?': open tasks with what each is about", async () => {
    const { user } = emulator.demo;
    const { text } = await call("labdata_list_tasks");
    expect(text.split("\n")[0]).toBe(`# Open tasks assigned to you (${user.name} (${user.id}))`);
    expect(text).toContain("Found 3 tasks (showing 1–3)");
    expect(text).toMatch(
      /^- \*\*TSK001 \(wftask_\w+\)\*\* Sequencing request: Task: Amplicon sequencing of the two best guides from run 12; Sample: EMX1 and VEGFA guides$/m,
    );
    expect(text).toMatch(
      /^ {2}status Pending; assigned to Mira Patel \(ent_\w+\); team Protein Engineering \(team_\w+\); workflow Cas9 screen follow-up \(prs_\w+\); scheduled 2025-06-30; entry etr_\w+$/m,
    );
    const all = await json("labdata_list_tasks", { status: "any" });
    expect(all.total).toBe(4);
    const done = await json("labdata_list_tasks", { status: "completed" });
    expect(done.tasks.map((t: { displayId: string }) => t.displayId)).toEqual(["TSK007"]);
  });

  it("lists a team's tasks by name, unassigned ones included, and refuses an unknown team", async () => {
    const team = await json("labdata_list_tasks", { team: "cloning", status: "any", limit: 100 });
    expect(team.total).toBeGreaterThan(3);
    for (const task of team.tasks) expect(task.responsibleParties[0].name).toBe("Cloning");
    expect(team.tasks.some((t: { assignee: unknown }) => t.assignee === null)).toBe(true);
    const { text } = await call("labdata_list_tasks", { team: "Cloning" });
    expect(text).toContain("not assigned yet");
    expect(await call("labdata_list_tasks", { team: "Marketing" })).toEqual({
      text: "Error: Invalid input for labdata_list_tasks: team: no team 'Marketing'. Teams: Cloning, Protein Engineering.",
      isError: true,
    });
    const toms = await json(
      "labdata_list_tasks",
      { assignee: emulator.demo.colleague.id, status: "any" },
      conn,
    );
    // Mira cannot read the Knockout strains workflow: she sees only Tom's tasks in folders she reads.
    expect(toms.tasks.map((t: { displayId: string }) => t.displayId)).toEqual(["TSK008"]);
  });
});

describe("labdata_list_requests", () => {
  it("lists open requests assigned to you or your teams, with what is asked and by whom", async () => {
    const { user } = emulator.demo;
    const { text } = await call("labdata_list_requests");
    expect(text.split("\n")[0]).toBe(
      `# Open requests assigned to you (${user.name} (${user.id})) or your teams (Protein Engineering)`,
    );
    expect(text).toContain("Found 3 requests (showing 1–3)");
    expect(text).toMatch(
      /^- \*\*REQ001 \(req_\w+\)\*\* Sequencing Request: Request: Amplicon sequencing of run 12's best guides$/m,
    );
    expect(text).toMatch(
      /^ {2}status requested; asked by Mira Patel \(ent_\w+\); assigned to team Protein Engineering \(team_\w+\); project src_\w+; created /m,
    );
    expect(text).toContain("status scheduled; asked by Dana Whitfield");
  });

  it("filters by team, requester and status, across both request schemas", async () => {
    const cloning = await json("labdata_list_requests", { team: "Cloning", status: "any" });
    expect(cloning.requests.map((r: { displayId: string }) => r.displayId).sort()).toEqual([
      "REQ004",
      "REQ006",
    ]);
    const mine = await json("labdata_list_requests", { requested_by: "me", status: "any" });
    expect(mine.requests.map((r: { displayId: string }) => r.displayId).sort()).toEqual([
      "REQ001",
      "REQ004",
      "REQ005",
    ]);
    const cancelled = await json("labdata_list_requests", { assignee: "anyone", status: "cancelled" });
    expect(cancelled.requests.map((r: { displayId: string }) => r.displayId)).toEqual(["REQ007"]);
    const everyone = await json("labdata_list_requests", { assignee: "anyone", status: "any", limit: 3 });
    expect(everyone).toMatchObject({ total: 7, count: 3, has_more: true, next_offset: 3 });
    // Lin reads Cas9 Engineering only: its three requests.
    const lins = await as(emulator.demo.reader, (lin) =>
      json("labdata_list_requests", { assignee: "anyone", status: "any" }, lin),
    );
    expect(lins.total).toBe(3);
  });
});

describe("who sees what", () => {
  it("a user without access to a project sees none of its entries, runs or results", async () => {
    const { reader, projects, notebook } = emulator.demo;
    const plasmidLibrary = projects["Plasmid Library"] as string;
    await as(reader, async (lin) => {
      const entries = await json("labdata_list_entries", { limit: 100 }, lin);
      const mira = await json("labdata_list_entries", { limit: 100 });
      expect(entries.total).toBeGreaterThan(0);
      expect(entries.total).toBeLessThan(mira.total);
      const folders = new Set(entries.entries.map((e: { folderId: string }) => e.folderId));
      for (const folder of ["Backbones", "Expression Vectors", "Reporter Constructs", "CRISPR Vectors"])
        expect(folders.has(emulator.demo.folders[folder])).toBe(false);
      expect(await call("labdata_list_entries", { project_id: plasmidLibrary }, lin)).toEqual({
        text: "Error: Permission denied. You don't have access to this resource.",
        isError: true,
      });
      expect(await call("labdata_get_entry", { id: notebook.longEntryId }, lin)).toEqual({
        text: "Error: Permission denied. You don't have access to this resource.",
        isError: true,
      });
      const runs = await json("labdata_list_assay_runs", { limit: 100 }, lin);
      expect(runs.total).toBe(9);
      for (const run of runs.assay_runs) expect(run.projectId).not.toBe(plasmidLibrary);
      expect((await call("labdata_list_assay_results", { project_id: plasmidLibrary }, lin)).text).toBe(
        "No assay results match these filters.",
      );
      expect((await call("labdata_list_assay_results", { run: "3" }, lin)).text).toBe(
        "No assay run '3' that you can see.",
      );
      // By id, a run of a project Lin may not read is refused, not hidden.
      const plasmidRun = (await json("labdata_list_assay_runs", { project_id: plasmidLibrary, limit: 1 }))
        .assay_runs[0].id;
      expect(await call("labdata_list_assay_results", { run: plasmidRun }, lin)).toEqual({
        text: "Error: Permission denied. You don't have access to this resource.",
        isError: true,
      });
      // Lin still reads the Cas9 screen and its results.
      expect((await call("labdata_get_entry", { id: notebook.cas9ScreenEntryId }, lin)).isError).toBe(false);
      expect((await json("labdata_list_assay_results", { run: "12" }, lin)).total).toBe(6);
    });
  });

  it("the app sees what its grants allow: Plasmid Library, not Cas9 Engineering", async () => {
    const { app, baseUrl, projects } = emulator.demo;
    const env = {
      ...apiKeyEnv(emulator.demo),
      LABDATA_API_KEY: "",
      LABDATA_CLIENT_ID: app.clientId,
      LABDATA_CLIENT_SECRET: app.clientSecret,
      LABDATA_BASE_URL: baseUrl,
    };
    const { LABDATA_API_KEY: _key, ...appEnv } = env;
    await as(appEnv, async (sync) => {
      const runs = await json("labdata_list_assay_runs", { limit: 100 }, sync);
      expect(runs.total).toBe(9);
      for (const run of runs.assay_runs) expect(run.projectId).toBe(projects["Plasmid Library"]);
      const entries = await json("labdata_list_entries", { limit: 100 }, sync);
      const allowed = new Set([emulator.demo.folders.Backbones, emulator.demo.folders["Expression Vectors"]]);
      expect(entries.total).toBeGreaterThan(0);
      for (const entry of entries.entries) expect(allowed.has(entry.folderId)).toBe(true);
      expect(await call("labdata_list_entries", { project_id: projects["Cas9 Engineering"] }, sync)).toEqual({
        text: "Error: Permission denied. You don't have access to this resource.",
        isError: true,
      });
    });
  });
});

describe("toolsets and read-only mode", () => {
  const names = async (extra: Record<string, string>) => {
    const connection = await connectInMemory(labdataService, apiKeyEnv(emulator.demo, undefined, extra));
    try {
      return (await connection.client.listTools()).tools.map((tool) => tool.name);
    } finally {
      await connection.close();
    }
  };

  // tools/list is sorted by name.
  it("offers each new toolset alone", async () => {
    expect(await names({ MCP_TOOLSETS: "notebook" })).toEqual(["labdata_get_entry", "labdata_list_entries"]);
    expect(await names({ MCP_TOOLSETS: "results" })).toEqual(
      ["labdata_list_assay_runs", "labdata_list_assay_results"].sort(),
    );
    expect(await names({ MCP_TOOLSETS: "workflows" })).toEqual(
      ["labdata_list_tasks", "labdata_list_requests"].sort(),
    );
  });

  it("hides the notebook writes in read-only mode, and keeps the whole server under 40 tools", async () => {
    const readOnly = await names({ MCP_READ_ONLY: "true", MCP_TOOLSETS: "notebook,writes" });
    expect(readOnly).toEqual(
      [
        "labdata_list_entries",
        "labdata_get_entry",
        "labdata_list_entry_templates",
        "labdata_list_registry_schemas",
      ].sort(),
    );
    expect((await names({})).length).toBeLessThan(40);
  });

  it("a tool of a toolset alone works, and a bad input never reaches the platform", async () => {
    const connection = await connectInMemory(
      labdataService,
      apiKeyEnv(emulator.demo, undefined, { MCP_TOOLSETS: "results" }),
    );
    try {
      expect((await call("labdata_list_assay_results", { run: "12" }, connection)).text).toContain(
        "Found 6 results",
      );
      // An id-like input given as a number, as a model may send it, reads as its text.
      expect((await call("labdata_list_assay_results", { run: 12 }, connection)).text).toContain(
        "Found 6 results",
      );
      const before = servedEndingWith(emulator, "/assay-results");
      const bad = await call("labdata_list_assay_results", { created: "June 2025" }, connection);
      expect(bad.isError).toBe(true);
      expect(bad.text).toContain("created: give a day, a month or first..last");
      expect(servedEndingWith(emulator, "/assay-results")).toBe(before);
    } finally {
      await connection.close();
    }
  });
});
