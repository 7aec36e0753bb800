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
};

let server: Awaited<ReturnType<typeof startHttpsServer>>;
let conn: Connected;

beforeAll(async () => {
  server = await startHttpsServer({
    ca: testCa(),
    async handler(req, res, url) {
      for await (const _ of req);
      const key = `${req.method} ${url.pathname.replace(/^\/t\/api\/v2/, "")}`;
      const body = ANSWERS[key];
      res.writeHead(body === undefined ? 404 : 200, {
        "content-type": "application/json",
        "result-count": "2",
      });
      res.end(JSON.stringify(body ?? { error: { message: "no", type: "invalid_request_error" } }));
    },
  });
  conn = await connectInMemory(labdataService, { LABDATA_BASE_URL: `${server.url}/t`, LABDATA_API_KEY: "k" });
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

describe("sparse and odd answers the document allows", () => {
  it("reads as placeholders and leaves out what is missing", async () => {
    const list = await call("labdata_list_aa_sequences", {});
    expectClean(list);
    expect(list.text).toContain("- **(unnamed)**: AA sequence");
    expect(list.text).toContain("(unnamed) (prtn_1)");
    expectClean(await call("labdata_get_entity", { id: "prtn_1" }));
    expectClean(await call("labdata_get_entity", { id: "prtn_1", fasta: true }));
    expectClean(await call("labdata_list_containers", {}));
    const plate = await call("labdata_get_box_contents", { id: "plt_1" });
    expectClean(plate);
    expect(plate.text).toContain("1 positions filled\n\n|   | 1 |\n|---|---|\n| A | con_2 |");
    expectClean(await call("labdata_locate", { entity_id: "seq_1" }));
    expectClean(await call("labdata_get_registered_entity", { registry_ids: ["X1"] }));
    expectClean(await call("labdata_list_registry_schemas", {}));
    const created = await call("labdata_create_sequences_bulk", { text: ">a\nACGTACGT", folder_id: "lib_1" });
    expectClean(created);
    expect(created.text).toBe(
      "The platform reported success but listed no created sequences; list the folder to check.",
    );
  });
});
