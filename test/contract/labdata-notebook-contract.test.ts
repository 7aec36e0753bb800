// The notebook, results and workflows tools of labdata_mcp against the emulator, every exchange held to
// the platform's published OpenAPI document (as labdata-contract.test.ts does for the registry tools):
// recorded by a proxy in between, each request and answer validated, with a user and with the app.
import { beforeAll, describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { type Connected, connectInMemory, textOf } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv } from "../support/labdata.js";
import { type Exchange, OpenApiContract } from "./openapi.js";
import { type RecordingProxy, startRecordingProxy } from "./recording-proxy.js";

/** The operations these tools use; each must have been exercised below. */
const OPERATIONS = [
  "listEntries",
  "getEntry",
  "createEntry",
  "listEntryTemplates",
  "listAssayRunSchemas",
  "listAssayResultSchemas",
  "getResultSchema",
  "listAssayRuns",
  "getAssayRun",
  "listAssayResults",
  "listWorkflowTasks",
  "listTeams",
  "listRequestSchemas",
  "listRequests",
  "getUser",
];

const emulator = useLabdataEmulator();
let contract: OpenApiContract;
const all: Exchange[] = [];

beforeAll(async () => {
  contract = await OpenApiContract.load();
});

const call = async (conn: Connected, name: string, args: Record<string, unknown> = {}) =>
  textOf(await conn.client.callTool({ name, arguments: args }));

/**
 * Runs a server through a proxy of its own: a fresh origin per run, so no run inherits another's idle
 * keep-alive connections (a POST on one the proxy is just closing fails as a ConnectionError).
 */
async function recorded(
  env: Record<string, string>,
  run: (conn: Connected) => Promise<void>,
): Promise<Exchange[]> {
  const tenantPath = new URL(emulator.demo.baseUrl).pathname;
  const proxy: RecordingProxy = await startRecordingProxy(emulator.url, `${tenantPath}/api/v2`);
  const conn = await connectInMemory(labdataService, {
    ...env,
    MCP_TOOLSETS: "all",
    LABDATA_BASE_URL: `${proxy.url}${tenantPath}`,
  });
  try {
    await run(conn);
  } finally {
    await conn.close();
    await proxy.close();
  }
  const exchanges = proxy.exchanges();
  all.push(...exchanges);
  return exchanges;
}

/** The query parameters the document declares for an operation. */
function queryParameters(operationId: string): Set<string> {
  type Operation = { operationId?: string; parameters?: Array<{ in: string; name: string }> };
  for (const item of Object.values(contract.document.paths) as Array<Record<string, Operation>>) {
    for (const operation of Object.values(item)) {
      if (operation?.operationId === operationId)
        return new Set((operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name));
    }
  }
  return new Set();
}

const problemsOf = (exchanges: Exchange[]) => contract.problems(exchanges);

/** Every new tool, in both formats, as an agent would use them. */
async function everyTool(conn: Connected, writableFolder: string | undefined) {
  const { notebook } = emulator.demo;
  const run = async (name: string, args: Record<string, unknown> = {}) => {
    const { text, isError } = await call(conn, name, args);
    expect(isError, `${name} ${JSON.stringify(args)}: ${text}`).toBe(false);
    return text;
  };
  for (const response_format of ["markdown", "json"]) {
    await run("labdata_list_entries", { limit: 5, response_format });
    await run("labdata_list_entries", { name: "screen", author: "me", response_format });
    await run("labdata_list_entries", {
      modified: "2025-06-01..2025-06-29",
      offset: 2,
      limit: 2,
      response_format,
    });
    await run("labdata_list_entry_templates", { response_format });
    await run("labdata_list_assay_runs", { limit: 3, response_format });
    await run("labdata_list_assay_runs", {
      created: "2025-06",
      creator: "me",
      response_format,
    });
    await run("labdata_list_assay_results", { run: "12", response_format });
    await run("labdata_list_assay_results", {
      limit: 5,
      offset: 3,
      created: "2025-06-01..",
      fields: ["id", "fields", "createdAt"],
      response_format,
    });
    await run("labdata_list_tasks", { response_format });
    await run("labdata_list_tasks", { team: "Cloning", status: "any", response_format });
    await run("labdata_list_requests", { response_format });
    await run("labdata_list_requests", { requested_by: "me", status: "completed", response_format });
  }
  const entries = JSON.parse(await run("labdata_list_entries", { limit: 1, response_format: "json" }));
  const id = entries.entries[0].id as string;
  await run("labdata_get_entry", { id });
  await run("labdata_get_entry", { id, response_format: "json" });
  const templates = JSON.parse(await run("labdata_list_entry_templates", { response_format: "json" }));
  if (writableFolder) {
    const created = JSON.parse(
      JSON.stringify(
        (
          await conn.client.callTool({
            name: "labdata_create_entry",
            arguments: {
              name: "contract-check",
              folder_id: writableFolder,
              template_id: templates.entry_templates[0]?.id,
            },
          })
        ).structuredContent,
      ),
    );
    await run("labdata_get_entry", { id: created.id });
  }
  if (notebook.cas9ScreenEntryId && writableFolder)
    await run("labdata_get_entry", { id: notebook.cas9ScreenEntryId });
}

describe("notebook, results and workflows, held to the OpenAPI document", () => {
  it("API key: every request and answer fits the document", async () => {
    const exchanges = await recorded(apiKeyEnv(emulator.demo), (conn) =>
      everyTool(conn, emulator.demo.folders.Backbones as string),
    );
    expect(exchanges.length).toBeGreaterThan(40);
    expect(problemsOf(exchanges)).toEqual([]);
    for (const exchange of exchanges.filter((e) => e.method === "GET" && /^\/[a-z-]+$/.test(e.path))) {
      expect(exchange.responseHeaders["result-count"], exchange.path).toMatch(/^\d+$/);
    }
  });

  it("OAuth client credentials (the app): every request and answer fits the document", async () => {
    const { app } = emulator.demo;
    const exchanges = await recorded(
      { LABDATA_CLIENT_ID: app.clientId, LABDATA_CLIENT_SECRET: app.clientSecret },
      (conn) => everyTool(conn, undefined),
    );
    expect(problemsOf(exchanges)).toEqual([]);
  });

  it("errors: 403 and 404 of the new endpoints fit the document's error schemas", async () => {
    const { reader, notebook, projects } = emulator.demo;
    const exchanges = await recorded(apiKeyEnv(emulator.demo, reader), async (conn) => {
      expect((await call(conn, "labdata_get_entry", { id: notebook.longEntryId })).text).toBe(
        "Error: Permission denied. You don't have access to this resource.",
      );
      expect(
        (await call(conn, "labdata_list_entries", { project_id: projects["Plasmid Library"] })).text,
      ).toBe("Error: Permission denied. You don't have access to this resource.");
      expect((await call(conn, "labdata_get_entry", { id: "etr_doesnotexist" })).text).toBe(
        "Error: Resource not found. Please check the ID is correct.",
      );
      expect(
        (
          await call(conn, "labdata_create_entry", {
            name: "x",
            folder_id: emulator.demo.folders["Guide RNAs"],
          })
        ).text,
      ).toBe("Error: Permission denied. You don't have access to this resource.");
    });
    const statuses = exchanges.map((e) => e.status);
    expect(statuses).toContain(403);
    expect(statuses).toContain(404);
    expect(problemsOf(exchanges)).toEqual([]);
  });

  it("exercised every operation the new tools use, and nothing the document lacks", () => {
    const seen = new Set(all.map((e) => contract.operationId(e.method, e.path)));
    expect(OPERATIONS.filter((operation) => !seen.has(operation))).toEqual([]);
    expect(
      all.filter((e) => !contract.operationId(e.method, e.path)).map((e) => `${e.method} ${e.path}`),
    ).toEqual([]);
    // The document's modifiedAt ranges name only > and <.
    const ranges = all.flatMap((e) => (e.query.modifiedAt ? [e.query.modifiedAt] : []));
    expect(ranges.length).toBeGreaterThan(0);
    for (const range of ranges) expect(range).toMatch(/^(> \S+( AND < \S+)?|< \S+)$/);
  });

  it("the checks can fail: an entry with a wrong type", () => {
    const entry = { status: 200, responseHeaders: {}, responseBody: { id: "etr_1", days: [{ date: 1 }] } };
    expect(contract.checkResponse("updateEntry", entry)).not.toEqual([]);
    expect(queryParameters("listEntries").has("authorIds.anyOf")).toBe(true);
    expect(queryParameters("listEntries").has("folderId")).toBe(false);
    // The defect set aside above: an assignee of either kind fails the document's oneOf.
    const withAssignee = (assignee: unknown) => ({
      status: 200,
      responseHeaders: {},
      responseBody: { requests: [{ id: "req_1", assignees: [assignee] }] },
    });
    for (const assignee of [{ user: { id: "ent_1" } }, { team: { id: "team_1" } }])
      expect(contract.checkResponse("listRequests", withAssignee(assignee))).not.toEqual([]);
  });
});
