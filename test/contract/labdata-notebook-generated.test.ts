// Client tolerance of the notebook, results and workflows tools, proven by generation (as
// labdata-generated.test.ts does for the registry tools): answers the OpenAPI document allows
// (json-schema-faker, seeded), served by a small HTTPS remote and read through the real tools. None may
// fail, and the markdown never shows undefined, null, [object Object] or NaN.
import { generate } from "json-schema-faker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpsServer } from "../../packages/emulators/src/common/https-server.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { type Connected, connectInMemory, textOf } from "../support/clients.js";
import { testCa } from "../support/emulator.js";
import { OpenApiContract } from "./openapi.js";

const SAMPLES = 60;
/** Calls per connection: each connection has its own client-side limit of 100 requests per 10 s. */
const SAMPLES_PER_CONNECTION = 5;
const UNREADABLE = /\bundefined\b|\bnull\b|\[object Object\]|\bNaN\b/;
const API_ROOT = "/tenant/api/v2";
const USER = { id: "ent_fixed", name: "Fixed User", email: "fixed@example.org", handle: "fixed" };
const RUN_SCHEMAS = { assayRunSchemas: [{ id: "assaysch_run", name: "Run schema", fieldDefinitions: [] }] };
const RESULT_SCHEMAS = {
  assayResultSchemas: [{ id: "assaysch_res", name: "Result schema", fieldDefinitions: [] }],
};
const REQUEST_SCHEMAS = { requestSchemas: [{ id: "assaysch_req", name: "Request schema" }] };

/** The items key of each list, for the empty last page. */
const LIST_KEYS: Record<string, string> = {
  "/entries": "entries",
  "/entry-templates": "entryTemplates",
  "/assay-runs": "assayRuns",
  "/assay-results": "assayResults",
  "/workflow-tasks": "workflowTasks",
  "/requests": "requests",
};

let contract: OpenApiContract;
let server: Awaited<ReturnType<typeof startHttpsServer>>;
/** "endless": every page names a new next one; "echo": every page names the cursor it was asked for. */
let mode: "normal" | "endless" | "echo" = "normal";
let served = 0;
/** Paths asked for, newest last. */
const asked: string[] = [];
/** A status to answer on a path instead of its canned answer, e.g. a 429 on "/dna-sequences/{id}". */
const refusals = new Map<string, { status: number; headers?: Record<string, string>; delayMs?: number }>();
/** Answers by "METHOD /path" with ids as {id}; anything else is a 404. */
const answers = new Map<string, unknown>();

beforeAll(async () => {
  contract = await OpenApiContract.load();
  server = await startHttpsServer({
    ca: testCa(),
    async handler(req, res, url) {
      for await (const _ of req); // the body is not needed
      const below = url.pathname.slice(API_ROOT.length);
      const path = below === "/users/me" ? below : below.replace(/^(\/[a-z-]+)\/[^/]+$/, "$1/{id}");
      // A generated page with a nextToken is followed by an empty last page, as a tenant ends a list.
      const token = url.searchParams.get("nextToken");
      const listKey = token && mode === "normal" ? LIST_KEYS[path] : undefined;
      const stored = answers.get(`${req.method} ${path}`) as Record<string, unknown> | undefined;
      // A broken remote: the same page again, with a new cursor each time or the one it was given.
      const body = listKey
        ? { [listKey]: [], nextToken: "" }
        : mode !== "normal" && stored
          ? { ...stored, nextToken: mode === "endless" ? `${token ?? ""}x` : (token ?? "same") }
          : stored;
      served += 1;
      asked.push(path);
      const refusal = refusals.get(path);
      if (refusal?.delayMs) await new Promise((resolve) => setTimeout(resolve, refusal.delayMs));
      const text = JSON.stringify(
        (!refusal && body) || { error: { message: "no canned answer", type: "invalid_request_error" } },
      );
      res.writeHead(refusal?.status ?? (body === undefined ? 404 : 200), {
        "content-type": "application/json",
        ...refusal?.headers,
      });
      res.end(text);
    },
  });
  answers.set("GET /users/me", USER);
  answers.set("GET /assay-run-schemas", RUN_SCHEMAS);
  answers.set("GET /assay-result-schemas", RESULT_SCHEMAS);
  answers.set("GET /request-schemas", REQUEST_SCHEMAS);
  answers.set("GET /teams", { teams: [{ id: "team_1", name: "Cloning" }] });
});
afterAll(async () => {
  await server?.close();
});

async function sample(schema: string, seed: number): Promise<unknown> {
  return generate(
    { $ref: `#/components/schemas/${schema}` },
    {
      seed,
      refResolver: (ref: string) => contract.schema(ref.replace("#/components/schemas/", "")) as never,
      optionalsProbability: 0.7,
      maxItems: 5,
      maxDepth: 7,
    },
  );
}

/**
 * What the document finds wrong with an answer generated from it, less its own oneOf ambiguities: a
 * field definition or note part whose optional type is left out matches every branch of the oneOf.
 */
function problems(operationId: string, body: unknown): unknown[] {
  return contract
    .checkResponse(operationId, { status: 200, responseBody: body, responseHeaders: {} })
    .flatMap(({ errors }) => (Array.isArray(errors) ? errors : [errors]))
    .filter((error: { keyword?: string }) => error.keyword !== "oneOf");
}

type Call = (name: string, args?: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>;

/** Serves SAMPLES answers of `schema` on `route` (checked against `operationId` unless told not to). */
async function forEachSample(
  route: string,
  schema: string,
  operationId: string | undefined,
  read: (call: Call, seed: number) => Promise<void>,
) {
  let conn: Connected | undefined;
  try {
    for (let seed = 1; seed <= SAMPLES; seed++) {
      const body = await sample(schema, seed);
      if (operationId) expect(problems(operationId, body), `seed ${seed}`).toEqual([]);
      answers.set(route, body);
      if (!conn || (seed - 1) % SAMPLES_PER_CONNECTION === 0) {
        await conn?.close();
        conn = await connectInMemory(labdataService, {
          MCP_TOOLSETS: "all",
          LABDATA_BASE_URL: `${server.url}/tenant`,
          LABDATA_API_KEY: "generated",
        });
      }
      const client = conn.client;
      await read(async (name, args = {}) => textOf(await client.callTool({ name, arguments: args })), seed);
    }
  } finally {
    await conn?.close();
  }
}

function readable({ text, isError }: { text: string; isError: boolean }, what: string) {
  expect(isError, `${what}: ${text}`).toBe(false);
  expect(text, what).not.toMatch(UNREADABLE);
}

async function bothFormats(call: Call, seed: number, tool: string, args: Record<string, unknown> = {}) {
  readable(await call(tool, args), `${tool} seed ${seed} markdown`);
  const json = await call(tool, { ...args, response_format: "json" });
  expect(json.isError, `${tool} seed ${seed} json: ${json.text}`).toBe(false);
  JSON.parse(json.text);
}

describe(`${SAMPLES} generated answers per operation, read through the new tools`, () => {
  it("listEntries: labdata_list_entries, with and without a filter applied here", async () => {
    await forEachSample("GET /entries", "EntriesPaginatedList", "listEntries", async (call, seed) => {
      await bothFormats(call, seed, "labdata_list_entries");
      await bothFormats(call, seed, "labdata_list_entries", { name: "a", author: "me" });
    });
  });

  it("getEntry: labdata_get_entry renders any entry the document allows, links unread or not", async () => {
    await forEachSample("GET /entries/{id}", "EntryById", "getEntry", async (call, seed) => {
      await bothFormats(call, seed, "labdata_get_entry", { id: "etr_generated" });
    });
  });

  it("listEntryTemplates: labdata_list_entry_templates", async () => {
    await forEachSample(
      "GET /entry-templates",
      "EntryTemplatesPaginatedList",
      "listEntryTemplates",
      async (call, seed) => {
        await bothFormats(call, seed, "labdata_list_entry_templates");
      },
    );
  });

  it("listAssayRuns and listAssayRunSchemas: labdata_list_assay_runs", async () => {
    await forEachSample(
      "GET /assay-run-schemas",
      "AssayRunSchemasPaginatedList",
      "listAssayRunSchemas",
      async () => {},
    );
    answers.set("GET /assay-run-schemas", RUN_SCHEMAS);
    await forEachSample("GET /assay-runs", "AssayRunsPaginatedList", "listAssayRuns", async (call, seed) => {
      await bothFormats(call, seed, "labdata_list_assay_runs");
      await bothFormats(call, seed, "labdata_list_assay_runs", { run: "12" });
    });
  });

  it("listAssayResults with generated schemas: labdata_list_assay_results", async () => {
    answers.set("GET /assay-results", { assayResults: [] });
    await forEachSample(
      "GET /assay-result-schemas",
      "AssayResultSchemasPaginatedList",
      "listAssayResultSchemas",
      async (call, seed) => {
        await bothFormats(call, seed, "labdata_list_assay_results");
      },
    );
    answers.set("GET /assay-result-schemas", RESULT_SCHEMAS);
    await forEachSample(
      "GET /assay-results",
      "AssayResultsPaginatedList",
      "listAssayResults",
      async (call, seed) => {
        await bothFormats(call, seed, "labdata_list_assay_results", { created: "2025-01-01.." });
      },
    );
  });

  it("listWorkflowTasks: labdata_list_tasks", async () => {
    await forEachSample(
      "GET /workflow-tasks",
      "WorkflowTasksPaginatedList",
      "listWorkflowTasks",
      async (call, seed) => {
        await bothFormats(call, seed, "labdata_list_tasks", { status: "any" });
        await bothFormats(call, seed, "labdata_list_tasks", { team: "Cloning" });
      },
    );
  });

  it("a list that never ends: a filtered walk stops after 10 pages and says so", async () => {
    const entry = { id: "etr_1", name: "Loop entry", folderId: "lib_1" };
    answers.set("GET /entries", { entries: [entry], nextToken: "x" });
    mode = "endless";
    const conn = await connectInMemory(labdataService, {
      MCP_TOOLSETS: "all",
      LABDATA_BASE_URL: `${server.url}/tenant`,
      LABDATA_API_KEY: "generated",
    });
    try {
      served = 0;
      const progress: string[] = [];
      const { text, isError } = textOf(
        await conn.client.callTool({ name: "labdata_list_entries", arguments: { name: "loop" } }, undefined, {
          onprogress: ({ message }) => void progress.push(message ?? ""),
        }),
      );
      expect(isError, text).toBe(false);
      // Stopped short, the count is a lower bound (issue 28).
      expect(text).toContain("Found at least 10 entries");
      // The walk reports from its second page on.
      expect(progress).toEqual(Array.from({ length: 9 }, (_, i) => `Read ${i + 1} records, ${i + 1} match`));
      expect(text).toContain(
        "Not every entry was searched: a search here stops after 1,000 records or 10 pages of the platform's answers. Narrow it with project_id or modified.",
      );
      expect(served).toBe(10);
      // A remote handing back the very cursor it was given ends the walk at once.
      mode = "echo";
      served = 0;
      const echo = await connectInMemory(labdataService, {
        MCP_TOOLSETS: "all",
        LABDATA_BASE_URL: `${server.url}/tenant`,
        LABDATA_API_KEY: "generated",
      });
      try {
        const once = textOf(
          await echo.client.callTool({ name: "labdata_list_entries", arguments: { name: "loop" } }),
        );
        expect(once.text).toContain("Found 2 entries");
        expect(served).toBe(2);
      } finally {
        await echo.close();
      }
    } finally {
      mode = "normal";
      await conn.close();
    }
  });

  it("an entry's links: names a remote cannot give fall back to 'type id'; a 429 or a timeout stops the look-ups", async () => {
    const links = Array.from({ length: 12 }, (_, i) => ({ id: `seq_link${i}`, type: "dna_sequence" }));
    answers.set("GET /entries/{id}", {
      entry: {
        id: "etr_links",
        name: "Linked",
        days: [{ date: "2025-06-30", notes: [{ type: "text", text: "x", links }] }],
      },
    });
    const read = async (extra: Record<string, string> = {}) => {
      const conn = await connectInMemory(labdataService, {
        MCP_TOOLSETS: "all",
        LABDATA_BASE_URL: `${server.url}/tenant`,
        LABDATA_API_KEY: "generated",
        ...extra,
      });
      try {
        asked.length = 0;
        const result = textOf(
          await conn.client.callTool({ name: "labdata_get_entry", arguments: { id: "etr_links" } }),
        );
        return { ...result, lookups: asked.filter((path) => path === "/dna-sequences/{id}").length };
      } finally {
        await conn.close();
      }
    };
    // Not found: every name is asked for, each link keeps its type and id.
    const missing = await read();
    expect(missing.isError, missing.text).toBe(false);
    expect(missing.lookups).toBe(12);
    expect(missing.text).toContain("Linked: dna sequence seq_link0, dna sequence seq_link1");
    // Rate-limited for ten minutes: one round of five look-ups, then the entry as it is.
    refusals.set("/dna-sequences/{id}", { status: 429, headers: { "retry-after": "600" } });
    try {
      const limited = await read();
      expect(limited.isError, limited.text).toBe(false);
      expect(limited.lookups).toBe(5);
      expect(limited.text).toContain("dna sequence seq_link11");
      // Too slow to answer within the 1 s timeout: one round, not three.
      refusals.set("/dna-sequences/{id}", { status: 200, delayMs: 2_500 });
      const slow = await read({ MCP_REQUEST_TIMEOUT: "1" });
      expect(slow.isError, slow.text).toBe(false);
      expect(slow.lookups).toBe(5);
      expect(slow.text).toContain("dna sequence seq_link11");
    } finally {
      refusals.clear();
    }
  });

  it("listRequests: labdata_list_requests (not checked first: the document's assignee oneOf refuses every assignee)", async () => {
    await forEachSample("GET /requests", "RequestsPaginatedList", undefined, async (call, seed) => {
      await bothFormats(call, seed, "labdata_list_requests", { assignee: "anyone", status: "any" });
      await bothFormats(call, seed, "labdata_list_requests");
    });
  });
});
