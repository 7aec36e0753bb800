// Every exchange between labdata_mcp and the lab data platform emulator, held to the platform's
// published OpenAPI document: each tool through a real MCP client, with each of the three sign-in
// methods, and the error cases, recorded by a proxy in between and validated request and answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { type Connected, connectInMemory, textOf } from "../support/clients.js";
import { testCa, useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv } from "../support/labdata.js";
import { LABDATA_SAMPLES, labdataDemoIds, sampleCalls } from "../support/sample-calls.mjs";
import { type Exchange, OpenApiContract } from "./openapi.js";
import { type RecordingProxy, startRecordingProxy } from "./recording-proxy.js";

/**
 * What the emulator serves that the document does not describe as such, and why it is still held to
 * the document where it can be. Anything else without an operation in the document fails the test.
 */
const SPEC_ONLY: Record<string, string> = {
  "GET /users/me":
    "the spec's credential check; the document has only GET /users/{user_id} (getUser), which this path " +
    "matches with user_id 'me', so it is validated as getUser",
};

/** The operations labdata_mcp uses; each must have been exercised below. */
const OPERATIONS = [
  "generateToken",
  "getUser",
  "listDNASequences",
  "getDNASequence",
  "createDNASequence",
  "listProjects",
  "listFolders",
  // Issue 17: entities, registry, inventory, bulk writes.
  "listAASequences",
  "getAASequence",
  "listDNAOligos",
  "getDNAOligo",
  "listRNAOligos",
  "listCustomEntities",
  "getCustomEntity",
  "searchDnaSequences",
  "bulkCreateDNASequences",
  "getTask",
  "archiveDNAOligos",
  "unarchiveDNAOligos",
  "listRegistries",
  "listEntitySchemas",
  "bulkGetRegisteredEntities",
  "listContainers",
  "getContainer",
  "getBox",
  "listBoxContents",
  "getPlate",
  "getLocation",
];

const AUDIENCE = "lab-mcp-contract";
const emulator = useLabdataEmulator();
let idp: IdentityProvider;
let proxy: RecordingProxy;
let contract: OpenApiContract;
let baseUrl: string;
const all: Exchange[] = [];

beforeAll(async () => {
  idp = await startIdentityProvider({ ca: testCa(), clock: emulator.clock });
  emulator.admin.updateSettings(emulator.demo.tenant, {
    oidc: { configurationUrl: idp.configurationUrl, audience: AUDIENCE },
  });
  const tenantPath = new URL(emulator.demo.baseUrl).pathname;
  proxy = await startRecordingProxy(emulator.url, `${tenantPath}/api/v2`);
  baseUrl = `${proxy.url}${tenantPath}`;
  contract = await OpenApiContract.load();
});
afterAll(async () => {
  await proxy?.close();
  await idp?.close();
});

async function withServer<T>(env: Record<string, string>, use: (conn: Connected) => Promise<T>): Promise<T> {
  const conn = await connectInMemory(labdataService, {
    ...env,
    MCP_TOOLSETS: "all",
    LABDATA_BASE_URL: baseUrl,
  });
  try {
    return await use(conn);
  } finally {
    await conn.close();
  }
}

const call = async (conn: Connected, name: string, args: Record<string, unknown> = {}) =>
  textOf(await conn.client.callTool({ name, arguments: args }));

/** Runs the exchanges `run` causes, keeps them, and returns what the agent read. */
async function recorded<T>(run: () => Promise<T>): Promise<{ result: T; exchanges: Exchange[] }> {
  proxy.clear();
  const result = await run();
  const exchanges = proxy.exchanges();
  all.push(...exchanges);
  return { result, exchanges };
}

const problemsOf = (exchanges: Exchange[]) => contract.problems(exchanges, SPEC_ONLY);

/** Every tool, in both formats where it has them, as an agent would use them. */
async function everyTool(conn: Connected, writableFolder: string) {
  const texts: string[] = [];
  const run = async (name: string, args: Record<string, unknown> = {}) => {
    const { text, isError } = await call(conn, name, args);
    expect(isError, `${name} ${JSON.stringify(args)}: ${text}`).toBe(false);
    texts.push(text);
    return text;
  };
  await run("labdata_get_current_user");
  await run("labdata_get_current_user", { response_format: "json" });
  const page = JSON.parse(await run("labdata_list_entities", { limit: 3, response_format: "json" }));
  await run("labdata_list_entities", { limit: 3 });
  await run("labdata_list_entities", { limit: 2, offset: 150 });
  await run("labdata_list_entities", { name: "cas9", archived: "include", sort: "name_asc", limit: 5 });
  const projects = JSON.parse(await run("labdata_list_projects", { response_format: "json" }));
  await run("labdata_list_projects");
  const projectId = projects.projects[0].id as string;
  await run("labdata_list_entities", { project_id: projectId, sort: "modified_asc", limit: 2 });
  await run("labdata_list_folders", { project_id: projectId });
  await run("labdata_list_folders", { response_format: "json" });
  await run("labdata_list_entities", { folder_id: writableFolder, sort: "name_desc", limit: 2 });
  const id = page.entities[0].id as string;
  await run("labdata_get_entity", { id });
  await run("labdata_get_entity", { id, response_format: "json" });
  await run("labdata_export_dna_sequence", { id });
  await run("labdata_export_dna_sequence", { id, format: "genbank" });
  // The resources read the same operations.
  for (const uri of [`labdata://dna-sequences/${id}`, "labdata://users/me"]) {
    const { contents } = await conn.client.readResource({ uri });
    expect(contents[0] && "text" in contents[0] ? contents[0].text : "", uri).not.toBe("");
  }
  await run("labdata_create_dna_sequence", {
    name: "contract-check",
    bases: "ATGGTGAGCAAGGGCGAGGAG",
    folder_id: writableFolder,
    is_circular: true,
    aliases: ["cc-1"],
    annotations: [{ name: "start", type: "CDS", start: 1, end: 9, strand: "reverse" }],
  });
  return texts;
}

describe("labdata_mcp against the emulator, held to the OpenAPI document", () => {
  it("API key: every tool's requests and answers fit the document", async () => {
    const { exchanges } = await recorded(() =>
      withServer(apiKeyEnv(emulator.demo), (conn) =>
        everyTool(conn, emulator.demo.folders.Backbones as string),
      ),
    );
    expect(exchanges.length).toBeGreaterThan(15);
    expect(problemsOf(exchanges)).toEqual([]);
    // The list envelope's total comes from Result-Count, which every list answer carries.
    for (const exchange of exchanges.filter((e) => e.method === "GET" && !e.path.includes("/", 1))) {
      if (exchange.path !== "/users/me") expect(exchange.responseHeaders["result-count"]).toMatch(/^\d+$/);
    }
  });

  it("OAuth client credentials: the token request and answer fit generateToken, then every tool", async () => {
    const { app, tenant, organizationId } = emulator.demo;
    // The demo app only reads the organization; writing a sequence needs write at every level.
    emulator.admin.setAppGrant(tenant, { appId: app.id, resourceId: organizationId, role: "write" });
    const { exchanges } = await recorded(() =>
      withServer(
        { LABDATA_CLIENT_ID: app.clientId, LABDATA_CLIENT_SECRET: app.clientSecret },
        // The demo app may write to the Backbones folder.
        (conn) => everyTool(conn, emulator.demo.folders.Backbones as string),
      ),
    );
    const token = exchanges.filter((e) => contract.operationId(e.method, e.path) === "generateToken");
    expect(token).toHaveLength(1);
    expect(token[0]?.requestBody).toMatchObject({ grant_type: "client_credentials" });
    expect(problemsOf(exchanges)).toEqual([]);
  });

  it("OpenID Connect ID token: every tool's requests and answers fit the document", async () => {
    const token = await idp.mintIdToken({ email: emulator.demo.user.email, audience: AUDIENCE });
    const { exchanges } = await recorded(() =>
      withServer({ LABDATA_ID_TOKEN: token }, (conn) =>
        everyTool(conn, emulator.demo.folders.Backbones as string),
      ),
    );
    expect(exchanges.every((e) => e.requestHeaders.authorization?.startsWith("Bearer "))).toBe(true);
    expect(problemsOf(exchanges)).toEqual([]);
  });
});

describe("every tool's sample call (test/support/sample-calls.mjs), held to the OpenAPI document", () => {
  it("API key: each listed tool has one, and its requests and answers fit the document", async () => {
    // The warehouse tools mint their login through the platform (POST /warehouse-credentials, recorded).
    const warehouse = await emulator.warehouse(emulator.demo.tenant);
    const env = { ...apiKeyEnv(emulator.demo), LABDATA_WAREHOUSE_URL: warehouse.url };
    const { exchanges } = await recorded(() =>
      withServer({ ...env, MCP_ALLOW_DESTRUCTIVE: "true" }, async (conn) => {
        const listed = (await conn.client.listTools()).tools.map((tool) => tool.name);
        expect(listed.sort()).toEqual(Object.keys(LABDATA_SAMPLES).sort());
        const page = JSON.parse(
          (await call(conn, "labdata_list_entities", { limit: 1, response_format: "json" })).text,
        );
        for (const sample of sampleCalls(
          LABDATA_SAMPLES,
          labdataDemoIds(emulator.demo, page.entities[0].id),
        )) {
          const { text, isError } = await call(conn, sample.name, sample.arguments());
          expect(isError, `${sample.name}: ${text}`).toBe(false);
        }
      }),
    );
    expect(problemsOf(exchanges)).toEqual([]);
  });
});

describe("the registry, entity and inventory tools held to the OpenAPI document", () => {
  it("API key: every request and answer of these tools fits the document", async () => {
    const registry = emulator.demo.registry;
    const { exchanges } = await recorded(() =>
      withServer({ ...apiKeyEnv(emulator.demo), MCP_ALLOW_DESTRUCTIVE: "true" }, async (conn) => {
        const run = async (name: string, args: Record<string, unknown> = {}) => {
          const { text, isError } = await call(conn, name, args);
          expect(isError, `${name} ${JSON.stringify(args)}: ${text}`).toBe(false);
        };
        await run("labdata_search_entities", { query: "pLKO" });
        await run("labdata_list_entities", { type: "aa_sequence", limit: 2, offset: 1 });
        await run("labdata_list_entities", { type: "rna_oligo", archived: "include" });
        await run("labdata_list_entities", { type: "custom_entity", response_format: "json" });
        await run("labdata_get_entity", { id: registry.entities.EGFP, fasta: true });
        await run("labdata_get_entity", { id: registry.entities["M13-F"] });
        await run("labdata_get_entity", { id: registry.entities.HEK293T, response_format: "json" });
        await run("labdata_search_dna_bases", { bases: registry.shRna3Insert, registered_only: true });
        await run("labdata_get_entity", { id: "PL09003" });
        await run("labdata_get_entity", { id: "STR00001" });
        await run("labdata_list_registry_schemas", { limit: 2, offset: 2 });
        await run("labdata_locate", { id: registry.entities["M13-F"] });
        await run("labdata_locate", { id: registry.glycerolStockId });
        await run("labdata_get_box_contents", { id: registry.glycerolBoxId });
        await run("labdata_list_containers", { name: "glycerol" });
        await run("labdata_create_sequences_bulk", {
          text: ">contract-bulk\nATGGTGAGCAAGGGCGAG\n",
          folder_id: emulator.demo.folders.Backbones,
        });
        const oligo = registry.entities["GFP-qPCR-F"];
        await run("labdata_archive_entities", { type: "dna_oligo", ids: [oligo], reason: "Other" });
        await run("labdata_unarchive_entities", { type: "dna_oligo", ids: [oligo] });
      }),
    );
    expect(problemsOf(exchanges)).toEqual([]);
  });
});

describe("error answers, held to the document's error schemas", () => {
  const expectError = async (
    env: Record<string, string>,
    name: string,
    args: Record<string, unknown>,
    status: number,
    text: string,
  ) => {
    const { result, exchanges } = await recorded(() => withServer(env, (conn) => call(conn, name, args)));
    expect(result).toEqual({ text, isError: true });
    expect(exchanges.map((e) => e.status)).toContain(status);
    expect(problemsOf(exchanges)).toEqual([]);
    return exchanges.find((e) => e.status === status) as Exchange;
  };

  it("404: an id that does not exist (NotFoundError)", async () => {
    const answer = await expectError(
      apiKeyEnv(emulator.demo),
      "labdata_get_entity",
      { id: "seq_doesnotexist", type: "dna_sequence" },
      404,
      "Error: Resource not found. Please check the ID is correct.",
    );
    expect(answer.responseBody).toMatchObject({ error: { type: "invalid_request_error" } });
  });

  it("403: a project the user may not read (ForbiddenError)", async () => {
    const forbidden = emulator.demo.projects["Plasmid Library"] as string;
    await expectError(
      apiKeyEnv(emulator.demo, emulator.demo.reader),
      "labdata_list_entities",
      { project_id: forbidden },
      403,
      "Error: Permission denied. You don't have access to this resource.",
    );
  });

  it("401: a wrong API key, and a wrong client secret at the token endpoint (OAuthUnauthorizedError)", async () => {
    await expectError(
      { ...apiKeyEnv(emulator.demo), LABDATA_API_KEY: "not-a-key" },
      "labdata_list_projects",
      {},
      401,
      "Error: Invalid API authentication",
    );
    const token = await expectError(
      { LABDATA_CLIENT_ID: emulator.demo.app.clientId, LABDATA_CLIENT_SECRET: "wrong-secret" },
      "labdata_get_current_user",
      {},
      401,
      "Error: Invalid API authentication",
    );
    expect(token.responseBody).toMatchObject({ error: { type: "invalid_client" } });
  });

  it("400: a filter naming a folder that does not exist (BadRequestError)", async () => {
    const answer = await expectError(
      apiKeyEnv(emulator.demo),
      "labdata_list_entities",
      { folder_id: "lib_doesnotexist" },
      400,
      "Error: API request failed with status 400",
    );
    expect(answer.responseBody).toMatchObject({ error: { type: "invalid_request_error" } });
  });

  it("429: past the tenant's limit, with the rate-limit headers", async () => {
    const { tenant } = emulator.demo;
    // One request per two minutes: a Retry-After that long is reported, not waited for.
    emulator.admin.updateSettings(tenant, { rateLimit: { requests: 1, windowMs: 120_000 } });
    try {
      await recorded(() =>
        withServer(apiKeyEnv(emulator.demo), (conn) => call(conn, "labdata_list_projects")),
      );
      const refused = await expectError(
        apiKeyEnv(emulator.demo),
        "labdata_list_projects",
        {},
        429,
        "Error: Rate limit exceeded. Please wait before making more requests.",
      );
      expect(refused.responseHeaders).toMatchObject({ "x-rate-limit-remaining": "0" });
      expect(Number(refused.responseHeaders["retry-after"])).toBeGreaterThan(60);
    } finally {
      emulator.admin.updateSettings(tenant, { rateLimit: { requests: 100, windowMs: 10_000 } });
    }
  });
});

describe("the whole run", () => {
  it("exercised every operation labdata_mcp uses, and every error status", () => {
    const seen = new Set(all.map((e) => contract.operationId(e.method, e.path)));
    expect(OPERATIONS.filter((operation) => !seen.has(operation))).toEqual([]);
    const statuses = new Set(all.map((e) => e.status));
    for (const status of [200, 201, 400, 401, 403, 404, 429]) expect(statuses).toContain(status);
    // The spec-only list names what was really served, so it cannot rot.
    for (const route of Object.keys(SPEC_ONLY)) {
      expect(all.some((e) => `${e.method} ${e.path}` === route)).toBe(true);
    }
  });

  it("the token endpoint's refusals of a bad request fit OAuthBadRequestError (sent directly)", async () => {
    const tokenUrl = `${baseUrl}/api/v2/token`;
    const form = "application/x-www-form-urlencoded";
    const cases: Array<[string, RequestInit, number]> = [
      [
        "another grant type",
        { method: "POST", headers: { "content-type": form }, body: "grant_type=password" },
        400,
      ],
      ["no grant type", { method: "POST", headers: { "content-type": form }, body: "client_id=x" }, 400],
      [
        "JSON instead of a form",
        { method: "POST", headers: { "content-type": "application/json" }, body: "{}" },
        400,
      ],
      ["GET", { method: "GET" }, 405],
    ];
    for (const [what, init, status] of cases) {
      proxy.clear();
      expect((await fetch(tokenUrl, init)).status, what).toBe(status);
      const [exchange] = proxy.exchanges();
      if (!exchange) throw new Error(`${what}: nothing recorded`);
      expect(contract.checkResponse("generateToken", exchange), what).toEqual([]);
    }
  });

  it("sends archiveReason only with the values the document names (its parameter is a free string)", () => {
    const parameter = (
      contract.document.paths["/dna-sequences"] as {
        get: { parameters: Array<{ name: string; examples?: Record<string, { value: string }> }> };
      }
    ).get.parameters.find((p) => p.name === "archiveReason");
    const documented = Object.values(parameter?.examples ?? {}).map((example) => example.value);
    expect(documented).toContain("ANY_ARCHIVED_OR_NOT_ARCHIVED");
    const sent = all.flatMap((e) => (e.query.archiveReason === undefined ? [] : [e.query.archiveReason]));
    expect(new Set(sent)).toEqual(new Set(["NOT_ARCHIVED", "ANY_ARCHIVED_OR_NOT_ARCHIVED"]));
    for (const value of sent) expect(documented).toContain(value);
  });

  it("the validator refuses what the document refuses (it can fail)", () => {
    const sequence = { id: "seq_1", name: "x", bases: "ACGT", length: 4, isCircular: false };
    const ok: Exchange = {
      method: "GET",
      path: "/dna-sequences/seq_1",
      query: {},
      requestHeaders: {},
      requestBody: undefined,
      status: 200,
      responseHeaders: {},
      responseBody: { ...sequence, archiveRecord: null, folderId: null },
    };
    expect(contract.check(ok)).toEqual([]);
    expect(contract.check({ ...ok, responseBody: { ...sequence, length: "4" } })).not.toEqual([]);
    expect(contract.check({ ...ok, responseBody: { ...sequence, creator: null } })).not.toEqual([]);
    expect(contract.check({ ...ok, responseBody: { ...sequence, createdAt: "yesterday" } })).not.toEqual([]);
    expect(contract.check({ ...ok, status: 404, responseBody: { error: { type: "gone" } } })).not.toEqual([]);
    expect(
      contract.check({ ...ok, path: "/dna-sequences", query: { pageSize: "500" }, responseBody: {} }),
    ).not.toEqual([]);
    expect(
      contract.check({
        ...ok,
        path: "/dna-sequences",
        responseBody: { dnaSequences: [], nextToken: null },
      }),
    ).not.toEqual([]);
    expect(
      contract.check({
        ...ok,
        method: "POST",
        path: "/dna-sequences",
        requestHeaders: { "content-type": "application/json" },
        requestBody: { name: "x", bases: "ACGT", isCircular: false, color: "red" },
        status: 201,
      }),
    ).not.toEqual([]);
    expect(contract.check({ ...ok, path: "/no-such-thing" })).not.toEqual([]);
  });
});
