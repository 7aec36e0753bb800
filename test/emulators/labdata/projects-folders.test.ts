// GET /projects and GET /folders: how a client finds the ids it filters sequences by; the same paging,
// sort and Result-Count as the sequence list.
import { beforeAll, describe, expect, it } from "vitest";
import { demoOf, useLabdataEmulator } from "../../support/emulator.js";
import { basic, expectError, fetchReply } from "../../support/labdata-http.js";

const emulator = useLabdataEmulator();
let api: string;
let auth: string;

beforeAll(async () => {
  api = emulator.tenant("acme").apiUrl;
  auth = basic(demoOf(emulator).admin.apiKey);
});

const get = (path: string) => fetchReply(`${api}${path}`, { authorization: auth });

describe("labdata GET /projects", () => {
  it("lists projects with id, name, owner and archiveRecord", async () => {
    const reply = await get("/projects?sort=name");
    expect(reply.status).toBe(200);
    expect(reply.headers.get("result-count")).toBe("4");
    expect(reply.body.nextToken).toBe("");
    const [first] = reply.body.projects;
    expect(first).toMatchObject({
      name: "Antibody Discovery",
      owner: { id: demoOf(emulator).teams["Protein Engineering"], name: "Protein Engineering" },
      archiveRecord: null,
    });
    expect(first.id).toMatch(/^src_/);
  });

  it("pages with pageSize and nextToken, and filters by name", async () => {
    const first = await get("/projects?sort=name&pageSize=3");
    expect(first.body.projects).toHaveLength(3);
    const second = await get(
      `/projects?sort=name&pageSize=3&nextToken=${encodeURIComponent(first.body.nextToken)}`,
    );
    expect(second.body.projects.map((p: { name: string }) => p.name)).toEqual(["Strain Construction"]);
    expect(second.body.nextToken).toBe("");
    const byName = await get("/projects?nameIncludes=library");
    expect(byName.body.projects.map((p: { name: string }) => p.name)).toEqual(["Plasmid Library"]);
    expectError(await get("/projects?pageSize=500"), 400, "invalid_request_error");
  });
});

describe("labdata GET /folders", () => {
  it("lists the ten demo folders, or those of one project", async () => {
    const all = await get("/folders?pageSize=100");
    expect(all.headers.get("result-count")).toBe("10");
    const projectId = demoOf(emulator).projects["Plasmid Library"];
    const inProject = await get(`/folders?projectId=${projectId}&sort=name`);
    expect(inProject.body.folders.map((f: { name: string }) => f.name)).toEqual([
      "Backbones",
      "CRISPR Vectors",
      "Expression Vectors",
      "Reporter Constructs",
    ]);
    expect(inProject.body.folders[0]).toMatchObject({ projectId, parentFolderId: null, archiveRecord: null });
    expectError(await get("/folders?projectId=src_unknown"), 400, "invalid_request_error");
  });
});
