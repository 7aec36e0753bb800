// The registry, entity and inventory tools against a small HTTPS remote that answers what the OpenAPI document allows but
// the emulator never sends: records with no fields at all, nulls, values of the wrong type, a task
// without a message. The agent must never read undefined, null or [object Object].
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpsServer } from "../../packages/emulators/src/common/https-server.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { type Connected, connectInMemory, textOf } from "../support/clients.js";
import { testCa } from "../support/emulator.js";

const ANSWERS: Record<string, unknown> = {
  "GET /users/me": { id: "ent_1" },
  "GET /aa-sequences": {
    aaSequences: [{}, { id: "prtn_1", name: null, aminoAcids: 42, aliases: [null, 3] }],
    nextToken: "",
  },
  "GET /aa-sequences/prtn_1": { id: "prtn_1", fields: { Tag: { value: { nested: true } } }, creator: null },
  "GET /containers": {
    containers: [
      {
        id: "con_1",
        quantity: { value: null, units: null },
        contents: [{ entity: null }, {}],
        parentStorageId: null,
      },
    ],
    nextToken: "",
  },
  "GET /plates/plt_1": { id: "plt_1", wells: { A1: { id: "con_2" }, B2: "not a well" } },
  "GET /registries": { registries: [{ id: "src_1" }] },
  "GET /registries/src_1/registered-entities:bulk-get": { entities: [{}] },
  "GET /entity-schemas": {
    entitySchemas: [{ id: "ts_1" }, { name: "Only a name", fieldDefinitions: null }],
    nextToken: "",
  },
  "POST /dna-sequences:bulk-create": { taskId: "task-1" },
  "GET /tasks/task-1": { status: "SUCCEEDED" },
  // Issue 28: the document's two well shapes, one an InaccessibleResource
  "GET /plates/plt_2": {
    id: "plt_2",
    wells: {
      A1: { id: "con_2", name: "Tube" },
      A8: { inaccessibleId: "con_9", resourceType: "inaccessible_resource", type: "container" },
    },
  },
  // Field values that are objects, display texts null or absent (the document allows both)
  "GET /workflow-tasks": {
    workflowTasks: [
      {
        id: "wftask_1",
        displayId: "T1",
        fields: {
          Sample: { value: { id: "bfi_7", name: "Strain 7" }, displayValue: null, textValue: null },
          Settings: { value: { temperature: 37 }, type: "json" },
          Wells: { value: ["A1", { id: "con_2" }], displayValue: null },
        },
      },
    ],
    nextToken: "",
  },
  "GET /teams": { teams: [] },
  "GET /request-schemas": { requestSchemas: [{ id: "assaysch_1" }] },
  "GET /requests": {
    requests: [
      { id: "req_1", displayId: "R1", fields: { Target: { value: { nested: true }, displayValue: null } } },
    ],
    nextToken: "",
  },
  // A read by a path of another type that answers 400 rather than 404
  "GET /rna-oligos/seq_400": { id: "seq_400", name: "RNA one", bases: "ACGU" },
};
// Every note type the document defines (EntryNotePart's 19), each with text and a link.
const LINK = { id: "seq_linked", type: "dna_sequence" };
const NOTE_TYPES = [
  "app_canvas",
  "assay_run",
  "box_creation_table",
  "code",
  "external_file",
  "inventory_container_table",
  "inventory_plate_table",
  "list_bullet",
  "list_checkbox",
  "list_number",
  "lookup_table",
  "mixture_prep_table",
  "note_linked_chart",
  "plate_creation_table",
  "registration_table",
  "results_table",
  "table",
  "text",
  "text_box",
];
ANSWERS["GET /entries/etr_1"] = {
  entry: {
    id: "etr_1",
    name: "Every note",
    days: [
      {
        date: "2026-11-26",
        notes: NOTE_TYPES.map((type) => ({
          type,
          text: `text of ${type}`,
          links: [LINK],
          ...(type === "external_file" ? { externalFileId: "file_1" } : {}),
          ...(type === "app_canvas" ? { canvasId: "cnvs_1" } : {}),
          ...(type === "note_linked_chart" ? { chart: { id: "chart_1" } } : {}),
          ...(type === "registration_table" ? { entitySchemaId: "ts_9", apiId: "reg_table" } : {}),
        })),
      },
    ],
  },
};
/** Statuses other than 200 and 404 (what has no answer). */
const STATUSES: Record<string, number> = { "GET /dna-sequences/seq_400": 400 };

let server: Awaited<ReturnType<typeof startHttpsServer>>;
let conn: Connected;

beforeAll(async () => {
  server = await startHttpsServer({
    ca: testCa(),
    async handler(req, res, url) {
      for await (const _ of req);
      const key = `${req.method} ${url.pathname.replace(/^\/t\/api\/v2/, "")}`;
      const body = ANSWERS[key];
      res.writeHead(STATUSES[key] ?? (body === undefined ? 404 : 200), {
        "content-type": "application/json",
        "result-count": "2",
      });
      res.end(JSON.stringify(body ?? { error: { message: "no", type: "invalid_request_error" } }));
    },
  });
  conn = await connectInMemory(labdataService, {
    MCP_TOOLSETS: "all",
    LABDATA_BASE_URL: `${server.url}/t`,
    LABDATA_API_KEY: "k",
  });
});
afterAll(async () => {
  await conn?.close();
  await server?.close();
});

const call = async (name: string, args: Record<string, unknown>) =>
  textOf(await conn.client.callTool({ name, arguments: args }));

function expectClean(result: { text: string; isError: boolean }): void {
  expect(result.isError, result.text).toBe(false);
  expect(result.text).not.toMatch(/undefined|\bnull\b|\[object|NaN/);
}

describe("issue 28: wells, fields and entity types read as they are", () => {
  it("says a well answered as inaccessible_resource is there and not readable", async () => {
    const plate = await call("labdata_get_box_contents", { id: "plt_2" });
    expectClean(plate);
    expect(plate.text).toContain(
      "- **A container you may not read (con_9)**: it is there at position A8, but you have no access to what it holds",
    );
    expect(plate.text).not.toMatch(/A8, empty/);
  });

  it("renders a field whose value is an object, a list, and display texts null (tasks, requests)", async () => {
    const tasks = await call("labdata_list_tasks", { assignee: "anyone", status: "any" });
    expectClean(tasks);
    expect(tasks.text).toContain('Sample: Strain 7 (bfi_7); Settings: {"temperature":37}; Wells: A1, con_2');
    const requests = await call("labdata_list_requests", { status: "any", assignee: "anyone" });
    expectClean(requests);
    expect(requests.text).toContain('Target: {"nested":true}');
    const entity = await call("labdata_get_entity", { id: "prtn_1" });
    expect(entity.text).toContain('- Tag: {"nested":true}');
  });

  it("renders the text and links of every note type the document defines (19)", async () => {
    const entry = await call("labdata_get_entry", { id: "etr_1" });
    expectClean(entry);
    // text and table notes show their text as a caption; run and results notes name their record
    for (const type of NOTE_TYPES.filter((t) => t !== "assay_run" && t !== "results_table"))
      expect(entry.text, type).toContain(`text of ${type}`);
    expect(entry.text.match(/Linked: dna sequence seq_linked/g)?.length).toBeGreaterThanOrEqual(17);
    expect(entry.text).toContain(
      "Attached file file_1\n\n> text of external_file\n  Linked: dna sequence seq_linked",
    );
    expect(entry.text).toContain("> ```\n> text of code\n> ```\n  Linked: dna sequence seq_linked");
    expect(entry.text).toContain("(app canvas note: canvas cnvs_1)");
    expect(entry.text).toContain("(note linked chart note: chart chart_1)");
    expect(entry.text).toContain("(registration table note: entity schema ts_9, api reg_table)");
  });

  it("labdata_get_entity without a type goes on to the other types when a path answers 400", async () => {
    const found = await call("labdata_get_entity", { id: "seq_400" });
    expectClean(found);
    expect(found.text).toContain("RNA one (seq_400)");
  });
});

describe("sparse and odd answers the document allows", () => {
  it("reads as placeholders and leaves out what is missing", async () => {
    const list = await call("labdata_list_entities", { type: "aa_sequence" });
    expectClean(list);
    expect(list.text).toContain("- **(unnamed)**: AA sequence");
    expect(list.text).toContain("(unnamed) (prtn_1)");
    expectClean(await call("labdata_get_entity", { id: "prtn_1" }));
    expectClean(await call("labdata_get_entity", { id: "prtn_1", fasta: true }));
    expectClean(await call("labdata_list_containers", {}));
    const plate = await call("labdata_get_box_contents", { id: "plt_1" });
    expectClean(plate);
    expect(plate.text).toContain(
      "1 positions filled\n\nWhere: not inside any location.\n\n|   | 1 |\n|---|---|\n| A | con_2 |",
    );
    expectClean(await call("labdata_locate", { id: "seq_1" }));
    expectClean(await call("labdata_get_entity", { id: "X1" }));
    expectClean(await call("labdata_list_registry_schemas", {}));
    const created = await call("labdata_create_sequences_bulk", { text: ">a\nACGTACGT", folder_id: "lib_1" });
    expectClean(created);
    expect(created.text).toBe(
      "The platform reported success but listed no created sequences; list the folder to check.",
    );
  });
});
