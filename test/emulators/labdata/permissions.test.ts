// Access mirrors the interface: users inherit memberships downwards (highest role along the chain);
// apps need a grant on the folder, its project and the project's owner (lowest role along the chain).
// Valid credentials without permission get 403, and lists hold only what the caller may see.
import { beforeAll, describe, expect, it } from "vitest";
import { demoOf, useLabdataEmulator } from "../../support/emulator.js";
import { accessToken, basic, bearer, expectError, fetchReply } from "../../support/labdata-http.js";

const emulator = useLabdataEmulator();
let api: string;
let appAuth: string;

beforeAll(async () => {
  api = emulator.tenant("acme").apiUrl;
  emulator.admin.updateSettings("acme", { rateLimit: null });
  const { app } = demoOf(emulator);
  appAuth = bearer(await accessToken(api, app.clientId, app.clientSecret));
});

const demo = () => demoOf(emulator);
const get = (path: string, authorization: string) => fetchReply(`${api}${path}`, { authorization });
const names = (items: { name: string }[]) => items.map((i) => i.name).sort();

/** The id of a live sequence in a folder, found by the demo admin (who sees everything). */
async function sequenceIn(folder: string): Promise<string> {
  const reply = await get(
    `/dna-sequences?pageSize=1&folderId=${demo().folders[folder]}`,
    basic(demo().admin.apiKey),
  );
  return reply.body.dnaSequences[0].id as string;
}

function newSequence(folder: string) {
  return {
    name: "pTest-permission",
    bases: "ATGCGTACGTTAGC",
    isCircular: false,
    folderId: demo().folders[folder],
  };
}

const create = (folder: string, authorization: string) =>
  fetchReply(`${api}/dna-sequences`, { authorization, json: newSequence(folder) });

describe("labdata permissions: users inherit memberships downwards", () => {
  it("an organization member sees every project; a project and team member sees those", async () => {
    const all = await get("/projects", basic(demo().admin.apiKey));
    expect(names(all.body.projects)).toEqual([
      "Antibody Discovery",
      "Cas9 Engineering",
      "Plasmid Library",
      "Strain Construction",
    ]);
    const mine = await get("/projects", basic(demo().user.apiKey));
    expect(names(mine.body.projects)).toEqual(["Antibody Discovery", "Cas9 Engineering", "Plasmid Library"]);
    expect(mine.headers.get("result-count")).toBe("3");
  });

  it("answers 403 to reading, listing or creating where the user has no membership", async () => {
    const { user, projects, folders } = demo();
    const auth = basic(user.apiKey);
    expectError(
      await get(`/dna-sequences/${await sequenceIn("Knockout Cassettes")}`, auth),
      403,
      "permission_error",
    );
    expectError(
      await get(`/dna-sequences?projectId=${projects["Strain Construction"]}`, auth),
      403,
      "permission_error",
    );
    expectError(
      await get(`/dna-sequences?folderId=${folders["Knockout Cassettes"]}`, auth),
      403,
      "permission_error",
    );
    expectError(
      await get(`/folders?projectId=${projects["Strain Construction"]}`, auth),
      403,
      "permission_error",
    );
    expectError(await create("Knockout Cassettes", auth), 403, "permission_error");
  });

  it("a folder membership covers that folder only", async () => {
    const { colleague, projects, folders } = demo();
    const auth = basic(colleague.apiKey);
    expect((await get(`/dna-sequences/${await sequenceIn("Backbones")}`, auth)).status).toBe(200);
    expect((await get(`/dna-sequences?folderId=${folders.Backbones}`, auth)).status).toBe(200);
    expectError(
      await get(`/dna-sequences/${await sequenceIn("Expression Vectors")}`, auth),
      403,
      "permission_error",
    );
    expectError(
      await get(`/dna-sequences?projectId=${projects["Plasmid Library"]}`, auth),
      403,
      "permission_error",
    );
    const visibleFolders = await get("/folders?pageSize=100", auth);
    expect(names(visibleFolders.body.folders)).toEqual([
      "Backbones",
      "Integration Plasmids",
      "Knockout Cassettes",
    ]);
  });

  it("read on an ancestor lets a user read but not write; write lower down adds writing there (highest role counts)", async () => {
    const { reader, folders } = demo();
    const auth = basic(reader.apiKey);
    expect((await get(`/dna-sequences/${await sequenceIn("Guide RNAs")}`, auth)).status).toBe(200);
    expectError(await create("Guide RNAs", auth), 403, "permission_error");
    emulator.admin.setMembership("acme", {
      userId: reader.id,
      resourceId: folders["Guide RNAs"] ?? "",
      role: "write",
    });
    expect((await create("Guide RNAs", auth)).status).toBe(201);
    expectError(await create("Cas9 Variants", auth), 403, "permission_error");
    emulator.admin.removeMembership("acme", reader.id, folders["Guide RNAs"] ?? "");
    expectError(await create("Guide RNAs", auth), 403, "permission_error");
  });

  it("lists hold only what the caller may see", async () => {
    const { colleague } = demo();
    const reply = await get("/dna-sequences?pageSize=100", basic(colleague.apiKey));
    // Backbones (500 live) + Strain Construction (39 + 39 live).
    expect(reply.headers.get("result-count")).toBe(String(500 + 39 + 39));
    const folderIds = new Set([
      demo().folders.Backbones,
      demo().folders["Knockout Cassettes"],
      demo().folders["Integration Plasmids"],
    ]);
    for (const seq of reply.body.dnaSequences) expect(folderIds.has(seq.folderId)).toBe(true);
  });

  it("answers 404, not 403, to a sequence id that does not exist", async () => {
    expectError(
      await get("/dna-sequences/seq_doesNotExist", basic(demo().user.apiKey)),
      404,
      "invalid_request_error",
    );
  });
});

describe("labdata permissions: apps need a grant on each level", () => {
  it("reads and lists only folders granted at folder, project and owner level", async () => {
    const reply = await get("/dna-sequences?pageSize=100", appAuth);
    expect(reply.headers.get("result-count")).toBe("1000");
    const projects = await get("/projects", appAuth);
    expect(names(projects.body.projects)).toEqual(["Plasmid Library"]);
    const folders = await get("/folders", appAuth);
    expect(names(folders.body.folders)).toEqual(["Backbones", "Expression Vectors"]);
  });

  it("the lowest role along the chain counts: write on folder and project, read on the organization, is read", async () => {
    const { app, organizationId } = demo();
    expect((await create("Backbones", appAuth)).status).toBe(403);
    emulator.admin.setAppGrant("acme", { appId: app.id, resourceId: organizationId, role: "write" });
    expect((await create("Backbones", appAuth)).status).toBe(201);
    expectError(await create("Expression Vectors", appAuth), 403, "permission_error");
    expect((await get(`/dna-sequences/${await sequenceIn("Expression Vectors")}`, appAuth)).status).toBe(200);
    emulator.admin.setAppGrant("acme", { appId: app.id, resourceId: organizationId, role: "read" });
  });

  it("a missing grant at any level is a 403: folder, project or owning team", async () => {
    const { app, projects, folders, teams, organizationId } = demo();
    expectError(
      await get(`/dna-sequences/${await sequenceIn("Reporter Constructs")}`, appAuth),
      403,
      "permission_error",
    );
    // A grant on Cas9 Engineering but none on its team.
    expectError(
      await get(`/dna-sequences?projectId=${projects["Cas9 Engineering"]}`, appAuth),
      403,
      "permission_error",
    );
    const guide = await sequenceIn("Guide RNAs");
    expectError(await get(`/dna-sequences/${guide}`, appAuth), 403, "permission_error");

    emulator.admin.setAppGrant("acme", {
      appId: app.id,
      resourceId: teams["Protein Engineering"] ?? "",
      role: "read",
    });
    expect((await get(`/dna-sequences?projectId=${projects["Cas9 Engineering"]}`, appAuth)).status).toBe(200);
    expectError(await get(`/dna-sequences/${guide}`, appAuth), 403, "permission_error");
    emulator.admin.setAppGrant("acme", {
      appId: app.id,
      resourceId: folders["Guide RNAs"] ?? "",
      role: "read",
    });
    expect((await get(`/dna-sequences/${guide}`, appAuth)).status).toBe(200);

    emulator.admin.removeAppGrant("acme", app.id, organizationId);
    expectError(
      await get(`/dna-sequences/${await sequenceIn("Backbones")}`, appAuth),
      403,
      "permission_error",
    );
    expect((await get(`/dna-sequences/${guide}`, appAuth)).status).toBe(200);
    emulator.admin.setAppGrant("acme", { appId: app.id, resourceId: organizationId, role: "read" });
  });
});
