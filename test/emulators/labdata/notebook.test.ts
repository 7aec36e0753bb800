// The emulator's notebook, assays and workflow tasks over real HTTPS: the demo data is the same for the
// same seed; the filters, the refusals and the writes behave as the platform's document describes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LabdataEmulator } from "../../../packages/emulators/src/labdata/index.js";
import { demoOf, startTestLabdata } from "../../support/emulator.js";
import { basic, expectError, fetchReply } from "../../support/labdata-http.js";

let first: LabdataEmulator;
let again: LabdataEmulator;
let other: LabdataEmulator;
let api: string;
let mira: string;
let lin: string;

beforeAll(async () => {
  [first, again, other] = await Promise.all([
    startTestLabdata(),
    startTestLabdata({ seed: 1 }),
    startTestLabdata({ seed: 2 }),
  ]);
  api = first.tenant("acme").apiUrl;
  mira = basic(demoOf(first).user.apiKey);
  lin = basic(demoOf(first).reader.apiKey);
});
afterAll(async () => {
  await Promise.all([first.close(), again.close(), other.close()]);
});

/** Every page of a list, as a user sees it. */
async function everything(
  emulator: LabdataEmulator,
  path: string,
  key: string,
): Promise<Array<Record<string, unknown>>> {
  const auth = basic(demoOf(emulator).admin.apiKey);
  const items: Array<Record<string, unknown>> = [];
  let token = "";
  for (let i = 0; i < 50; i++) {
    const separator = path.includes("?") ? "&" : "?";
    const reply = await fetchReply(
      `${emulator.tenant("acme").apiUrl}${path}${separator}pageSize=100${token ? `&nextToken=${token}` : ""}`,
      {
        authorization: auth,
      },
    );
    expect(reply.status, reply.text).toBe(200);
    items.push(...reply.body[key]);
    token = reply.body.nextToken;
    if (!token) break;
  }
  return items;
}

describe("the demo notebook", () => {
  it("is the same for the same seed and differs for another", async () => {
    const a = await everything(first, "/entries", "entries");
    const b = await everything(again, "/entries", "entries");
    const c = await everything(other, "/entries", "entries");
    // The same records, wherever each emulator listens.
    const shape = (emulator: LabdataEmulator, items: unknown) =>
      JSON.stringify(items).replaceAll(emulator.url, "");
    expect(shape(again, b)).toBe(shape(first, a));
    expect(a.length).toBeGreaterThan(50);
    expect(shape(other, c)).not.toBe(shape(first, a));
    const tasks = await everything(first, "/workflow-tasks", "workflowTasks");
    expect(new Set(tasks.map((t) => (t.assignee as { name?: string } | null)?.name ?? "nobody"))).toEqual(
      new Set(["Mira Patel", "Tom Becker", "Dana Whitfield", "Lin Zhou", "nobody"]),
    );
  });

  it("holds the Cas9 screen of last week, run 12 and its six results with units", async () => {
    const { notebook } = demoOf(first);
    const entry = (await fetchReply(`${api}/entries/${notebook.cas9ScreenEntryId}`, { authorization: mira }))
      .body.entry;
    expect(entry.days.map((d: { date: string }) => d.date)).toEqual([
      "2025-06-23",
      "2025-06-24",
      "2025-06-26",
    ]);
    expect(
      new Set(entry.days.flatMap((d: { notes: Array<{ type: string }> }) => d.notes.map((n) => n.type))),
    ).toEqual(new Set(["text", "table", "list_checkbox", "list_bullet", "assay_run", "results_table"]));
    const run = (await fetchReply(`${api}/assay-runs/${notebook.run12Id}`, { authorization: mira })).body;
    expect(run.fields["Run number"].value).toBe(12);
    const results = await fetchReply(
      `${api}/assay-results?schemaId=${notebook.assaySchemas["Editing Efficiency"]}&assayRunIds=${notebook.run12Id}`,
      { authorization: mira },
    );
    expect(results.body.assayResults).toHaveLength(6);
    expect(results.body.assayResults[0].fields["Editing efficiency"].displayValue).toMatch(/^\d+(\.\d)? %$/);
    const schema = (
      await fetchReply(`${api}/assay-result-schemas/${notebook.assaySchemas["Editing Efficiency"]}`, {
        authorization: mira,
      })
    ).body;
    expect(
      schema.fieldDefinitions.find((f: { name: string }) => f.name === "Reads aligned").unit.symbol,
    ).toBe("reads");
  });
});

describe("filters and refusals", () => {
  it("filters entries by author, date range and review status; refuses a malformed range", async () => {
    const { user } = demoOf(first);
    const range = encodeURIComponent("> 2025-06-22 AND < 2025-06-30");
    const week = await fetchReply(`${api}/entries?authorIds.anyOf=${user.id}&modifiedAt=${range}`, {
      authorization: mira,
    });
    expect(week.body.entries.map((e: { name: string }) => e.name)).toContain(
      "Cas9 screen – HEK293T guide panel",
    );
    for (const entry of week.body.entries) expect(entry.modifiedAt > "2025-06-22").toBe(true);
    const review = await fetchReply(`${api}/entries?reviewStatus=NEEDS_REVIEW`, { authorization: mira });
    expect(review.body.entries.map((e: { name: string }) => e.name)).toEqual([
      "Plasmid library QC – batch 7",
    ]);
    expectError(
      await fetchReply(`${api}/entries?modifiedAt=last%20week`, { authorization: mira }),
      400,
      "invalid_request_error",
    );
    // The document names only > and < for this range.
    const inclusive = encodeURIComponent(">= 2025-06-22");
    expectError(
      await fetchReply(`${api}/entries?modifiedAt=${inclusive}`, { authorization: mira }),
      400,
      "invalid_request_error",
    );
    expectError(
      await fetchReply(`${api}/entries?reviewStatus=DONE`, { authorization: mira }),
      400,
      "invalid_request_error",
    );
  });

  it("lists runs and results only of a schema, and binds a nextToken to its query", async () => {
    const { notebook } = demoOf(first);
    expectError(await fetchReply(`${api}/assay-runs`, { authorization: mira }), 400, "invalid_request_error");
    expectError(
      await fetchReply(`${api}/assay-results?schemaId=nope`, { authorization: mira }),
      400,
      "invalid_request_error",
    );
    const schemaId = notebook.assaySchemas["Plasmid Yield"];
    const page = await fetchReply(`${api}/assay-results?schemaId=${schemaId}&pageSize=5`, {
      authorization: mira,
    });
    expect(page.headers.get("result-count")).toBe("54");
    const other = notebook.assaySchemas["Editing Efficiency"];
    const misused = await fetchReply(
      `${api}/assay-results?schemaId=${other}&nextToken=${page.body.nextToken}`,
      {
        authorization: mira,
      },
    );
    expectError(misused, 400, "invalid_request_error");
    const early = await fetchReply(
      `${api}/assay-runs?schemaId=${notebook.assaySchemas["NGS Amplicon Run"]}&maxCreatedTime=${Date.UTC(2025, 5, 1) / 1000}`,
      {
        authorization: mira,
      },
    );
    for (const run of early.body.assayRuns) expect(run.createdAt < "2025-06-01").toBe(true);
  });

  it("keeps what a user may not read out of every list, and answers 403 by id", async () => {
    const { notebook, projects } = demoOf(first);
    const runs = await fetchReply(`${api}/assay-runs?schemaId=${notebook.assaySchemas["Plate Reader Run"]}`, {
      authorization: lin,
    });
    expect(runs.body.assayRuns).toEqual([]);
    expect(runs.headers.get("result-count")).toBe("0");
    expectError(
      await fetchReply(`${api}/entries?projectId=${projects["Plasmid Library"]}`, { authorization: lin }),
      403,
      "permission_error",
    );
    expectError(
      await fetchReply(`${api}/entries/${notebook.longEntryId}`, { authorization: lin }),
      403,
      "permission_error",
    );
    const templates = await fetchReply(`${api}/entry-templates`, { authorization: lin });
    expect(templates.body.entryTemplates.map((t: { name: string }) => t.name)).toEqual(["CRISPR screen"]);
    const unassigned = await fetchReply(`${api}/workflow-tasks?assigneeIds=null`, { authorization: lin });
    for (const task of unassigned.body.workflowTasks) expect(task.assignee).toBeNull();
    expect(unassigned.body.workflowTasks.length).toBe(1);
  });
});

describe("writes", () => {
  it("creates an entry from a template dated from today, and refuses what it may not", async () => {
    const { folders, notebook, user } = demoOf(first);
    const created = await fetchReply(`${api}/entries`, {
      authorization: mira,
      json: {
        name: "Screen round 2",
        folderId: folders.Backbones,
        entryTemplateId: notebook.templates["CRISPR screen"],
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.days.map((d: { title: string }) => d.title)).toEqual([
      "Transfection",
      "Harvest",
      "Readout",
    ]);
    expect(created.body.days[0].date).toBe(new Date().toISOString().slice(0, 10));
    expect(created.body.authors.map((a: { id: string }) => a.id)).toEqual([user.id]);
    // Lin reads the Cas9 templates but may write nowhere; Mira may not use the Strain Construction one.
    expectError(
      await fetchReply(`${api}/entries`, {
        authorization: lin,
        json: { name: "x", folderId: folders["Guide RNAs"] },
      }),
      403,
      "permission_error",
    );
    expectError(
      await fetchReply(`${api}/entries`, {
        authorization: mira,
        json: {
          name: "x",
          folderId: folders.Backbones,
          entryTemplateId: notebook.templates["Knockout validation"],
        },
      }),
      403,
      "permission_error",
    );
    expectError(
      await fetchReply(`${api}/entries`, {
        authorization: mira,
        json: { name: "x", folderId: folders.Backbones, color: "red" },
      }),
      400,
      "invalid_request_error",
    );
  });
});
