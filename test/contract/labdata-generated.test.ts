// Client tolerance, proven by generation: for each operation labdata_mcp reads, 200 random answers
// that the OpenAPI document allows (json-schema-faker, seeded, so every run serves the same ones),
// served by a small HTTPS remote and read through the real tools by a real MCP client. None may end in
// InvalidResponseError or a crash, the markdown never shows undefined/null/[object Object]/NaN, and
// the json format keeps the pagination envelope.
import { generate } from "json-schema-faker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { type Connected, connectInMemory, textOf } from "../support/clients.js";
import { type CannedRemote, type Route, startCannedRemote } from "./canned-remote.js";
import { OpenApiContract } from "./openapi.js";

const SAMPLES = 200;
/** Calls per connection: each connection has its own client-side limit of 100 requests per 10 s. */
const SAMPLES_PER_CONNECTION = 20;
const UNREADABLE = /\bundefined\b|\bnull\b|\[object Object\]|\bNaN\b/;

const FIXED_USER = { id: "ent_fixed", name: "Fixed User", email: "fixed@example.org", handle: "fixed" };

let contract: OpenApiContract;
let remote: CannedRemote;

beforeAll(async () => {
  contract = await OpenApiContract.load();
  remote = await startCannedRemote({
    "GET /users/me": { body: FIXED_USER },
    "POST /token": { body: { access_token: "fixed-token", token_type: "Bearer", expires_in: 900 } },
  });
});
afterAll(async () => {
  await remote?.close();
});

/** One answer the document allows for `schema`, the same for the same seed. */
async function sample(schema: string, seed: number): Promise<unknown> {
  return generate(
    { $ref: `#/components/schemas/${schema}` },
    {
      seed,
      refResolver: (ref: string) => contract.schema(ref.replace("#/components/schemas/", "")) as never,
      optionalsProbability: 0.6,
      maxItems: 6,
      maxDepth: 6,
    },
  );
}

/** A Result-Count the document allows (any integer), or none. */
async function resultCountHeader(seed: number): Promise<Record<string, string>> {
  const headers = (await generate(
    { type: "object", properties: { "Result-Count": { type: "integer" } } },
    { seed, optionalsProbability: 0.7 },
  )) as { "Result-Count"?: number };
  return headers["Result-Count"] === undefined ? {} : { "Result-Count": String(headers["Result-Count"]) };
}

type Call = (name: string, args?: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>;

/**
 * Serves SAMPLES answers generated from `schema` on `route`, each first checked against the document
 * for `operationId`, and runs `read` on each through a real MCP client.
 */
async function forEachSample(
  route: Route,
  operationId: string,
  schema: string,
  status: number,
  read: (call: Call, seed: number, body: unknown) => Promise<void>,
  env: (seed: number) => Record<string, string> = () => ({ LABDATA_API_KEY: "generated-key" }),
  samplesPerConnection = SAMPLES_PER_CONNECTION,
) {
  let conn: Connected | undefined;
  try {
    for (let seed = 1; seed <= SAMPLES; seed++) {
      const body = await sample(schema, seed);
      const headers =
        route.startsWith("GET /") && !route.includes("{id}") && route !== "GET /users/me"
          ? await resultCountHeader(seed)
          : {};
      expect(
        contract.checkResponse(operationId, { status, responseBody: body, responseHeaders: headers }),
      ).toEqual([]);
      remote.answer(route, { status, body, headers });
      if (!conn || (seed - 1) % samplesPerConnection === 0) {
        await conn?.close();
        conn = await connectInMemory(labdataService, {
          MCP_TOOLSETS: "all",
          LABDATA_BASE_URL: remote.baseUrl,
          ...env(seed),
        });
      }
      const client = conn.client;
      const call: Call = async (name, args = {}) => textOf(await client.callTool({ name, arguments: args }));
      await read(call, seed, body);
    }
  } finally {
    await conn?.close();
  }
}

function expectReadable({ text, isError }: { text: string; isError: boolean }, what: string) {
  expect(isError, `${what}: ${text}`).toBe(false);
  expect(text, what).not.toMatch(UNREADABLE);
}

function expectEnvelope(text: string, key: string, offset: number) {
  const page = JSON.parse(text);
  // The conventions' fields in their order, and beside them whether total is a count (issue 28).
  expect(Object.keys(page)).toEqual([
    "total",
    "count",
    "offset",
    key,
    "has_more",
    "next_offset",
    "total_is_exact",
  ]);
  expect(typeof page.total_is_exact).toBe("boolean");
  const items = page[key] as unknown[];
  expect(Array.isArray(items)).toBe(true);
  expect(page.count).toBe(items.length);
  expect(page.offset).toBe(offset);
  expect(Number.isInteger(page.total) && page.total >= offset + items.length).toBe(true);
  expect(page.has_more).toBe(page.total > offset + items.length);
  expect(page.next_offset).toBe(page.has_more ? offset + items.length : null);
  return page;
}

describe(`${SAMPLES} generated answers per operation, read through the tools`, () => {
  it("listDNASequences: labdata_list_entities in both formats", async () => {
    await forEachSample(
      "GET /dna-sequences",
      "listDNASequences",
      "DnaSequencesPaginatedList",
      200,
      async (call, seed) => {
        expectReadable(await call("labdata_list_entities", { limit: 20 }), `seed ${seed} markdown`);
        const json = await call("labdata_list_entities", { limit: 20, response_format: "json" });
        expect(json.isError, json.text).toBe(false);
        expectEnvelope(json.text, "entities", 0);
      },
    );
  });

  it("getDNASequence: labdata_get_entity in both formats, and both exports", async () => {
    await forEachSample(
      "GET /dna-sequences/{id}",
      "getDNASequence",
      "DnaSequence",
      200,
      async (call, seed) => {
        const id = "seq_generated";
        expectReadable(await call("labdata_get_entity", { id }), `seed ${seed} markdown`);
        const json = await call("labdata_get_entity", { id, response_format: "json" });
        expect(json.isError, json.text).toBe(false);
        JSON.parse(json.text);
        const fasta = await call("labdata_export_dna_sequence", { id });
        expectReadable(fasta, `seed ${seed} fasta`);
        expect(fasta.text).toMatch(/^>/);
        const genbank = await call("labdata_export_dna_sequence", { id, format: "genbank" });
        expectReadable(genbank, `seed ${seed} genbank`);
        expect(genbank.text).toMatch(/^LOCUS {7}\S/);
        expect(genbank.text.trimEnd().endsWith("//")).toBe(true);
      },
    );
  });

  it("listProjects: labdata_list_projects in both formats", async () => {
    await forEachSample("GET /projects", "listProjects", "ProjectsPaginatedList", 200, async (call, seed) => {
      expectReadable(await call("labdata_list_projects"), `seed ${seed} markdown`);
      expectEnvelope((await call("labdata_list_projects", { response_format: "json" })).text, "projects", 0);
    });
  });

  it("listFolders: labdata_list_folders in both formats", async () => {
    await forEachSample("GET /folders", "listFolders", "FoldersPaginatedList", 200, async (call, seed) => {
      expectReadable(
        await call("labdata_list_folders", { project_id: "src_generated" }),
        `seed ${seed} markdown`,
      );
      expectEnvelope((await call("labdata_list_folders", { response_format: "json" })).text, "folders", 0);
    });
  });

  it("getUser (GET /users/me): labdata_get_current_user in both formats", async () => {
    await forEachSample("GET /users/me", "getUser", "User", 200, async (call, seed) => {
      expectReadable(await call("labdata_get_current_user"), `seed ${seed} markdown`);
      const json = JSON.parse((await call("labdata_get_current_user", { response_format: "json" })).text);
      expect(json.authentication).toBe("api_key");
    });
    remote.answer("GET /users/me", { body: FIXED_USER });
  });

  it("createDNASequence: labdata_create_dna_sequence reads the 201 answer", async () => {
    await forEachSample(
      "POST /dna-sequences",
      "createDNASequence",
      "DnaSequence",
      201,
      async (call, seed) => {
        const created = await call("labdata_create_dna_sequence", {
          name: "generated",
          bases: "ATGCATGC",
          folder_id: "lib_generated",
        });
        expectReadable(created, `seed ${seed}`);
        expect(created.text).toMatch(/^Created DNA sequence /);
      },
    );
  });

  it("generateToken: a fresh OAuth app sign-in per answer, then the tools run or say what is wrong", async () => {
    const noToken =
      "Error: The lab data platform's token endpoint answered without an access token. Check the app's " +
      "LABDATA_CLIENT_ID and LABDATA_CLIENT_SECRET, or sign in with LABDATA_API_KEY.";
    const outcomes = { signedIn: 0, refused: 0 };
    await forEachSample(
      "POST /token",
      "generateToken",
      "TokenResponse",
      200,
      async (call, seed, body) => {
        const result = await call("labdata_get_current_user");
        if ((body as { access_token?: string }).access_token) {
          expectReadable(result, `seed ${seed}`);
          expect(result.text).toContain("OAuth 2.0 client credentials");
          outcomes.signedIn++;
        } else {
          expect(result).toEqual({ text: noToken, isError: true });
          outcomes.refused++;
        }
      },
      (seed) => ({ LABDATA_CLIENT_ID: `app-${seed}`, LABDATA_CLIENT_SECRET: "generated-secret" }),
      1,
    );
    expect(outcomes.signedIn).toBeGreaterThan(SAMPLES / 4);
    expect(outcomes.refused).toBeGreaterThan(0);
    remote.answer("POST /token", {
      body: { access_token: "fixed-token", token_type: "Bearer", expires_in: 900 },
    });
    // 200 servers each signing in anew: about 20 s on a quiet CI machine, past the default limit.
  }, 90_000);

  it("served every answer it generated", () => {
    for (const route of [
      "GET /dna-sequences",
      "GET /dna-sequences/{id}",
      "GET /projects",
      "GET /folders",
      "POST /dna-sequences",
      "POST /token",
    ] as const) {
      expect(remote.served(route), route).toBeGreaterThanOrEqual(SAMPLES);
    }
  });
});
