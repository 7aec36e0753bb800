// The registry, entity and inventory endpoints of the lab data platform emulator over real HTTPS,
// each answer held to the platform's OpenAPI document, and the permission differences of the demo.
import { beforeAll, describe, expect, it } from "vitest";
import { type Exchange, OpenApiContract } from "../../contract/openapi.js";
import { demoOf, useLabdataEmulator } from "../../support/emulator.js";
import {
  accessToken,
  basic,
  bearer,
  expectError,
  fetchReply,
  type Reply,
} from "../../support/labdata-http.js";

const emulator = useLabdataEmulator();
let contract: OpenApiContract;
let api: string;

beforeAll(async () => {
  contract = await OpenApiContract.load();
  api = emulator.tenant("acme").apiUrl;
});

/** A request as `who`, its answer checked against the document (request and response). */
async function request(path: string, who: string, json?: unknown): Promise<Reply> {
  const reply = await fetchReply(`${api}${path}`, { authorization: who, json });
  const url = new URL(`${api}${path}`);
  const exchange: Exchange = {
    method: json === undefined ? "GET" : "POST",
    path: url.pathname.replace(/^\/acme\/api\/v2/, ""),
    query: Object.fromEntries(url.searchParams),
    requestHeaders: json === undefined ? {} : { "content-type": "application/json" },
    requestBody: json,
    status: reply.status,
    responseHeaders: Object.fromEntries(reply.headers),
    responseBody: reply.body,
  };
  expect(contract.check(exchange), `${exchange.method} ${path}`).toEqual([]);
  return reply;
}

const user = () => basic(demoOf(emulator).user.apiKey);
const reader = () => basic(demoOf(emulator).reader.apiKey);
const admin = () => basic(demoOf(emulator).admin.apiKey);

describe("entities: AA sequences, oligos, custom entities", () => {
  it("lists each kind with the document's keys, and matches names, aliases and registry ids", async () => {
    const aa = await request("/aa-sequences?pageSize=100", user());
    expect(aa.status).toBe(200);
    expect(aa.body.aaSequences.map((s: { name: string }) => s.name)).toContain("EGFP");
    const egfp = aa.body.aaSequences.find((s: { name: string }) => s.name === "EGFP");
    expect(egfp.aminoAcids).toMatch(/^M[A-Z]+$/);
    expect(egfp.length).toBe(egfp.aminoAcids.length);
    expect((await request("/dna-oligos?nameIncludes=m13%20forward", user())).body.dnaOligos[0].name).toBe(
      "M13-F",
    );
    expect((await request("/rna-oligos?nameIncludes=SI00002", user())).body.rnaOligos[0]).toMatchObject({
      name: "siKRAS-2",
      nucleotideType: "RNA",
    });
    const strains = await request("/custom-entities?nameIncludes=pLKO", user());
    expect(strains.body.customEntities.map((e: { name: string }) => e.name)).toEqual([
      "DH5alpha pLKO-shRNA-3",
    ]);
    expect(strains.headers.get("result-count")).toBe("1");
    const byAlias = await request("/dna-sequences?nameIncludes=shKRAS", user());
    expect(byAlias.body.dnaSequences.map((s: { name: string }) => s.name)).toEqual(["pLKO-shRNA-2"]);
  });

  it("gets one by id; another kind's path or an unreadable folder is a 404 or 403", async () => {
    const { entities } = demoOf(emulator).registry;
    const got = await request(`/custom-entities/${entities.HEK293T}`, user());
    expect(got.body).toMatchObject({ name: "HEK293T", aliases: ["293T"], entityRegistryId: "CL00001" });
    expectError(await request(`/aa-sequences/${entities.HEK293T}`, user()), 404, "invalid_request_error");
    expectError(
      await request(`/custom-entities/${entities["MG1655 ΔrecA"]}`, user()),
      403,
      "permission_error",
    );
  });

  it("a user without access to a project sees none of its entities", async () => {
    const all = await request("/custom-entities?pageSize=100", reader());
    expect(all.body.customEntities).toEqual([]);
    const mine = await request("/custom-entities?pageSize=100", user());
    expect(mine.body.customEntities.map((e: { name: string }) => e.name)).not.toContain("MG1655 ΔrecA");
    expect((await request("/custom-entities?pageSize=100", admin())).body.customEntities.length).toBe(5);
  });
});

describe("registry", () => {
  it("lists the registry and its schemas, and finds registered entities of any kind by registry id", async () => {
    const { registryId } = demoOf(emulator).registry;
    const registries = await request("/registries", user());
    expect(registries.body.registries).toEqual([
      expect.objectContaining({ id: registryId, name: "Acme Registry" }),
    ]);
    const schemas = await request("/entity-schemas?pageSize=3", user());
    expect(schemas.body.entitySchemas).toHaveLength(3);
    expect(schemas.body.nextToken).not.toBe("");
    const found = await request(
      `/registries/${registryId}/registered-entities:bulk-get?entityRegistryIds=PL09003,STR00001,PR00001`,
      user(),
    );
    expect(
      found.body.entities.map((e: { name: string; entityType: string }) => [e.name, e.entityType]),
    ).toEqual([
      ["pLKO-shRNA-3", "dna_sequence"],
      ["DH5alpha pLKO-shRNA-3", "custom_entity"],
      ["EGFP", "aa_sequence"],
    ]);
    expectError(
      await request(`/registries/${registryId}/registered-entities:bulk-get?entityRegistryIds=XX1`, user()),
      404,
      "invalid_request_error",
    );
    expectError(
      await request(
        `/registries/${registryId}/registered-entities:bulk-get?entityRegistryIds=STR00004`,
        user(),
      ),
      403,
      "permission_error",
    );
  });
});

describe("DNA bases search", () => {
  it("finds the sequences holding the bases on either strand, and refuses a short query", async () => {
    const { shRna3Insert, shRnaPlasmids } = demoOf(emulator).registry;
    const found = await request("/dna-sequences:search-bases", user(), { bases: shRna3Insert.slice(5, 40) });
    expect(found.body.dnaSequences.map((s: { id: string }) => s.id)).toEqual([shRnaPlasmids["pLKO-shRNA-3"]]);
    const reverse = [...shRna3Insert.slice(5, 40)]
      .reverse()
      .map((b) => ({ A: "T", T: "A", C: "G", G: "C" })[b])
      .join("");
    expect(
      (await request("/dna-sequences:search-bases", user(), { bases: reverse })).body.dnaSequences,
    ).toHaveLength(1);
    expect(
      (await request("/dna-sequences:search-bases", reader(), { bases: shRna3Insert })).body.dnaSequences,
    ).toEqual([]);
    // The document refuses it too, so it is sent without the contract check.
    const short = await fetchReply(`${api}/dna-sequences:search-bases`, {
      authorization: user(),
      json: { bases: "ACGTACG" },
    });
    expectError(short, 400, "invalid_request_error");
  });
});

describe("inventory", () => {
  it("answers where a stock is: the container holding an entity, its box position and the locations up", async () => {
    const demo = demoOf(emulator).registry;
    const holding = await request(
      `/containers?storageContentsId=${demo.shRnaPlasmids["pLKO-shRNA-3"]}`,
      user(),
    );
    expect(holding.body.containers).toHaveLength(1);
    const stock = holding.body.containers[0];
    expect(stock).toMatchObject({
      id: demo.glycerolStockId,
      parentStorageId: demo.glycerolBoxId,
      quantity: { value: 1.5, units: "mL" },
    });
    const contents = await request(`/boxes/${demo.glycerolBoxId}/contents`, user());
    expect(contents.body.containers.map((c: { gridPosition: string }) => c.gridPosition)).toEqual([
      "A1",
      "A2",
      "C4",
      "I9",
    ]);
    expect(contents.body.containers[2]).toMatchObject({ id: demo.glycerolStockId, gridNumber: 2 * 9 + 4 });
    const box = await request(`/boxes/${demo.glycerolBoxId}`, user());
    expect(box.body).toMatchObject({ size: 81, filledPositions: 4, emptyPositions: 77 });
    let parent = box.body.parentStorageId;
    const chain: string[] = [];
    while (parent) {
      const location = await request(`/locations/${parent}`, user());
      chain.push(location.body.name);
      parent = location.body.parentStorageId;
    }
    expect(chain).toEqual(["Freezer A Rack B", "Freezer A Shelf 2", "-80 °C Freezer A", "Lab 3.14"]);
    const below = await request(
      `/containers?ancestorStorageId=${demo.locations["-80 °C Freezer A"]}&pageSize=100`,
      user(),
    );
    expect(below.body.containers.map((c: { id: string }) => c.id)).toContain(demo.glycerolStockId);
  });

  it("renders a plate's wells and lists boxes and plates", async () => {
    const { plateId } = demoOf(emulator).registry;
    const plate = await request(`/plates/${plateId}`, user());
    expect(Object.keys(plate.body.wells).sort()).toEqual(["A1", "A2", "A3", "B1", "B2"]);
    expect(plate.body.wells.A1.contents[0].concentration).toEqual({ value: 100, units: "uM" });
    expect((await request("/plates", user())).body.plates).toHaveLength(1);
    expect((await request("/boxes?pageSize=100", user())).body.boxes.length).toBeGreaterThanOrEqual(2);
    expect((await request("/locations?pageSize=100", reader())).body.locations.length).toBe(11);
  });

  it("a user without access to a project sees none of its boxes or containers", async () => {
    const demo = demoOf(emulator).registry;
    expectError(await request(`/boxes/${demo.hiddenBoxId}`, user()), 403, "permission_error");
    expectError(await request(`/containers/${demo.hiddenContainerId}`, user()), 403, "permission_error");
    const boxes = await request("/boxes?pageSize=100", user());
    expect(boxes.body.boxes.map((b: { id: string }) => b.id)).not.toContain(demo.hiddenBoxId);
    const containers = await request("/containers?pageSize=100", user());
    expect(containers.body.containers.map((c: { id: string }) => c.id)).not.toContain(demo.hiddenContainerId);
    expect(
      (await request("/boxes?pageSize=100", reader())).body.boxes.map((b: { name: string }) => b.name),
    ).toEqual(["Protein aliquots PA-1"]);
  });

  it("shows the app a container whose content it may not read as an inaccessible resource", async () => {
    const demo = demoOf(emulator);
    const token = await accessToken(api, demo.app.clientId, demo.app.clientSecret);
    const stock = await request(`/containers/${demo.registry.glycerolStockId}`, bearer(token));
    expect(stock.body.contents[0].entity).toEqual({
      inaccessibleId: demo.registry.shRnaPlasmids["pLKO-shRNA-3"],
      resourceType: "inaccessible_resource",
      type: "dna_sequence",
    });
  });
});

describe("writes", () => {
  it("archives and unarchives entities of each kind, all or nothing", async () => {
    const { entities } = demoOf(emulator).registry;
    const archived = await request("/dna-oligos:archive", user(), {
      dnaOligoIds: [entities["M13-F"]],
      reason: "Expended",
    });
    expect(archived.body).toEqual({ dnaOligoIds: [entities["M13-F"]], batchIds: [] });
    const got = await request(`/dna-oligos/${entities["M13-F"]}`, user());
    expect(got.body.archiveRecord).toEqual({ reason: "Expended" });
    await request("/dna-oligos:unarchive", user(), { dnaOligoIds: [entities["M13-F"]] });
    expect((await request(`/dna-oligos/${entities["M13-F"]}`, user())).body.archiveRecord).toBeNull();
    expectError(
      await request("/custom-entities:archive", reader(), {
        customEntityIds: [entities.HEK293T],
        reason: "Other",
      }),
      403,
      "permission_error",
    );
    expectError(
      await request("/aa-sequences:archive", user(), { aaSequenceIds: ["prtn_nope"], reason: "Other" }),
      404,
      "invalid_request_error",
    );
  });

  it("bulk-creates DNA sequences through an async task that runs, then succeeds", async () => {
    const folderId = demoOf(emulator).folders.Backbones;
    const dnaSequences = Array.from({ length: 7 }, (_, i) => ({
      name: `bulk-${i}`,
      bases: "ATGGTGAGCAAGGGCGAGGAGCTG",
      isCircular: false,
      folderId,
    }));
    const started = await request("/dna-sequences:bulk-create", user(), { dnaSequences });
    expect(started.status).toBe(202);
    const statuses: string[] = [];
    let task: Reply;
    do {
      task = await request(`/tasks/${started.body.taskId}`, user());
      statuses.push(task.body.status);
    } while (task.body.status === "RUNNING" && statuses.length < 10);
    expect(statuses).toEqual(["RUNNING", "RUNNING", "SUCCEEDED"]);
    expect(task.body.response.dnaSequences.map((s: { name: string }) => s.name)).toEqual(
      dnaSequences.map((s) => s.name),
    );
    const listed = await request(`/dna-sequences?nameIncludes=bulk-&folderId=${folderId}`, user());
    expect(listed.headers.get("result-count")).toBe("7");
    expectError(await request(`/tasks/${started.body.taskId}`, admin()), 404, "invalid_request_error");
  });

  it("fails the task when an item is refused, and refuses a folder the caller may not write at once", async () => {
    const folderId = demoOf(emulator).folders.Backbones;
    const started = await request("/dna-sequences:bulk-create", user(), {
      dnaSequences: [{ name: "bad", bases: "ACGTXX", isCircular: false, folderId }],
    });
    let task: Reply;
    do task = await request(`/tasks/${started.body.taskId}`, user());
    while (task.body.status === "RUNNING");
    expect(task.body).toMatchObject({ status: "FAILED", errors: [{ index: 0 }] });
    expectError(
      await request("/dna-sequences:bulk-create", reader(), {
        dnaSequences: [{ name: "x", bases: "ACGT", isCircular: false, folderId }],
      }),
      403,
      "permission_error",
    );
  });
});
