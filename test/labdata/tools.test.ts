// labdata_mcp's tools through a real MCP client against the lab data platform emulator.
import { beforeAll, describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { type Connected, callText, connectInMemory, textOf, useInMemoryClient } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv } from "../support/labdata.js";

const emulator = useLabdataEmulator();
const conn = useInMemoryClient(labdataService, () => apiKeyEnv(emulator.demo));
const call = (name: string, args: Record<string, unknown> = {}, connection: Connected = conn) =>
  callText(connection, name, args);
const json = async (name: string, args: Record<string, unknown> = {}) =>
  JSON.parse((await call(name, { ...args, response_format: "json" })).text);

describe("labdata_get_current_user", () => {
  it("says who the credentials sign in as, and how", async () => {
    const { user, baseUrl } = emulator.demo;
    const { text, isError } = await call("labdata_get_current_user");
    expect(isError).toBe(false);
    expect(text).toBe(
      [
        "# Signed in to the lab data platform",
        "",
        `- **User**: ${user.name} (${user.id})`,
        `- **Email**: ${user.email}`,
        `- **Handle**: ${user.handle}`,
        "- **Authentication**: API key (HTTP Basic)",
        `- **Platform**: ${baseUrl}`,
      ].join("\n"),
    );
    expect(await json("labdata_get_current_user")).toMatchObject({
      id: user.id,
      email: user.email,
      authentication: "api_key",
    });
  });

  it("tells the agent to call it first when something fails with 401", async () => {
    const { tools } = await conn.client.listTools();
    const tool = tools.find((candidate) => candidate.name === "labdata_get_current_user");
    expect(tool?.description).toMatch(/Call first when .*Invalid API authentication/);
  });
});

describe("labdata_list_entities", () => {
  it("lists what the user may see with the total from Result-Count, newest change first", async () => {
    const page = await json("labdata_list_entities", { limit: 5 });
    expect(page).toMatchObject({ count: 5, offset: 0, has_more: true, next_offset: 5 });
    expect(page.total).toBeGreaterThanOrEqual(2000);
    const times = page.entities.map((s: { modifiedAt: string }) => Date.parse(s.modifiedAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(page.entities[0]).not.toHaveProperty("bases");
  });

  it("filters by name, project and folder, and sorts by name", async () => {
    const { projects, folders } = emulator.demo;
    const byName = await json("labdata_list_entities", { name: "cas9", limit: 100 });
    expect(byName.total).toBeGreaterThan(0);
    for (const s of byName.entities) expect(s.name.toLowerCase()).toContain("cas9");

    const folderId = folders.Backbones as string;
    const inFolder = await json("labdata_list_entities", {
      folder_id: folderId,
      sort: "name_asc",
      limit: 50,
    });
    expect(inFolder.entities.every((s: { folderId: string }) => s.folderId === folderId)).toBe(true);
    const names = inFolder.entities.map((s: { name: string }) => s.name);
    const caseInsensitive = (a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase(), "en");
    expect([...names].sort(caseInsensitive)).toEqual(names);

    const projectId = projects["Plasmid Library"] as string;
    const inProject = await json("labdata_list_entities", { project_id: projectId, limit: 1 });
    expect(inProject.total).toBeGreaterThanOrEqual(2000);
  });

  it("leaves archived sequences out unless asked", async () => {
    const without = await json("labdata_list_entities", { limit: 1 });
    const withArchived = await json("labdata_list_entities", { archived: "include", limit: 1 });
    expect(withArchived.total).toBeGreaterThan(without.total);
  });

  it("renders one short line per sequence in markdown, with the next offset", async () => {
    const { text } = await call("labdata_list_entities", { limit: 3 });
    const lines = text.split("\n");
    expect(lines[0]).toBe("# DNA sequences");
    expect(text).toMatch(
      /^Found \d+ sequences \(showing 1–3\); archived ones left out \(archived: 'include' counts them\)$/m,
    );
    expect(
      lines.filter((line) =>
        /^- \*\*.+ \(seq_\w+\)\*\*: (registry id \w+, )?[\d,]+ bp, (circular|linear)/.test(line),
      ),
    ).toHaveLength(3);
    expect(text.endsWith("More: call again with offset=3.")).toBe(true);
  });

  it("says so when nothing matches", async () => {
    expect((await call("labdata_list_entities", { name: "no-such-construct-anywhere" })).text).toBe(
      "No DNA sequences match these filters.",
    );
  });

  it("answers 403 for a project the user may not read", async () => {
    const reader = await connectInMemory(labdataService, apiKeyEnv(emulator.demo, emulator.demo.reader));
    const forbidden = emulator.demo.projects["Plasmid Library"] as string;
    expect(await call("labdata_list_entities", { project_id: forbidden }, reader)).toEqual({
      text: "Error: Permission denied. You don't have access to this resource.",
      isError: true,
    });
    await reader.close();
  });
});

describe("labdata_get_entity on a DNA sequence, and labdata_export_dna_sequence", () => {
  let id: string;
  beforeAll(async () => {
    id = (await json("labdata_list_entities", { limit: 1 })).entities[0].id;
  });

  it("reads one sequence: facts, annotation summary and the first bases with a way to get all", async () => {
    const full = await json("labdata_get_entity", { id });
    const { text } = await call("labdata_get_entity", { id });
    expect(text.split("\n")[0]).toBe(`# ${full.name} (${id})`);
    expect(text).toContain(`- **Length**: ${full.length.toLocaleString("en-US")} bp`);
    expect(text).toContain(`- **Topology**: ${full.isCircular ? "circular" : "linear"}`);
    expect(text).toContain(`- **Folder**: ${full.folderId}`);
    expect(text).toContain(`## Annotations (${full.annotations.length})`);
    expect(text).toContain(full.bases.slice(0, 120));
    expect(text).not.toContain(full.bases.slice(0, 121));
    expect(text).toContain("call labdata_export_dna_sequence for the whole sequence");
  });

  it("exports all bases as FASTA and as GenBank with the annotations as features", async () => {
    const full = await json("labdata_get_entity", { id });
    const fasta = (await call("labdata_export_dna_sequence", { id })).text;
    expect(fasta.split("\n")[0]).toBe(
      `>${full.name} ${id} ${full.length} bp ${full.isCircular ? "circular" : "linear"}`,
    );
    expect(fasta.split("\n").slice(1).join("")).toBe(full.bases.toUpperCase());
    const genbank = (await call("labdata_export_dna_sequence", { id, format: "genbank" })).text;
    expect(genbank).toMatch(/^LOCUS /);
    expect(genbank.match(/^ {5}\S+ +(complement\()?(join\()?\d+\.\.\d+/gm)?.length).toBe(
      full.annotations.length + 1,
    );
    expect(genbank.trimEnd().endsWith("//")).toBe(true);
  });

  it("links the exported file as a resource the client reads by URI, in either format", async () => {
    for (const [format, mimeType] of [
      ["fasta", "text/x-fasta"],
      ["genbank", "chemical/x-genbank"],
    ] as const) {
      const result = await conn.client.callTool({
        name: "labdata_export_dna_sequence",
        arguments: { id, format },
      });
      const text = textOf(result).text;
      const uri = `labdata://dna-sequences/${id}/${format}`;
      // The text is the file: linked (with its size), not embedded a second time.
      expect(result.content).toEqual([
        { type: "text", text },
        expect.objectContaining({ type: "resource_link", uri, mimeType, size: Buffer.byteLength(text) }),
      ]);
      expect(result.structuredContent).toMatchObject({
        id,
        format,
        resource_uri: uri,
        bytes: Buffer.byteLength(text),
      });
      const { contents } = await conn.client.readResource({ uri });
      expect(contents).toEqual([{ uri, mimeType, text }]);
    }
  });

  it("answers 404 for an id that does not exist, and refuses a path trick without a request", async () => {
    expect(await call("labdata_get_entity", { id: "seq_doesnotexist" })).toEqual({
      text: "Error: Resource not found. Please check the ID is correct.",
      isError: true,
    });
    emulator.requests.clear();
    const trick = await call("labdata_get_entity", { id: "../users/me" });
    expect(trick.isError).toBe(true);
    expect(trick.text).toBe(
      "Error: Invalid input for labdata_get_entity: id: give the id of an entity or the address of its page. Correct the arguments and call the tool again.",
    );
    expect(emulator.requests.count()).toBe(0);
  });

  it("reads the FASTA resource labdata://dna-sequences/{id}", async () => {
    const { contents } = await conn.client.readResource({ uri: `labdata://dna-sequences/${id}` });
    expect((contents[0] as { text: string }).text).toBe(
      (await call("labdata_export_dna_sequence", { id })).text,
    );
  });
});

describe("projects and folders", () => {
  it("lists the projects the user may see with their ids", async () => {
    const page = await json("labdata_list_projects");
    const names = page.projects.map((p: { name: string }) => p.name);
    expect(names).toContain("Plasmid Library");
    const { text } = await call("labdata_list_projects");
    expect(text).toContain(`- Plasmid Library (${emulator.demo.projects["Plasmid Library"]})`);
  });

  it("lists the folders of one project", async () => {
    const projectId = emulator.demo.projects["Plasmid Library"] as string;
    const page = await json("labdata_list_folders", { project_id: projectId });
    expect(page.total).toBeGreaterThan(0);
    expect(page.folders.every((f: { projectId: string }) => f.projectId === projectId)).toBe(true);
  });
});

describe("labdata_create_dna_sequence", () => {
  it("creates a sequence with its annotations in a folder the user may write", async () => {
    const folderId = emulator.demo.folders.Backbones as string;
    const { text, isError } = await call("labdata_create_dna_sequence", {
      name: "pTest-mini",
      bases: "atgc atgc atgc 12 ATGCATGC",
      folder_id: folderId,
      is_circular: true,
      aliases: ["mini"],
      annotations: [{ name: "tag", type: "CDS", start: 1, end: 6, strand: "reverse" }],
    });
    expect(isError).toBe(false);
    const id = /^Created DNA sequence pTest-mini \((seq_\w+)\)\./.exec(text)?.[1] as string;
    expect(id).toBeTruthy();
    const created = await json("labdata_get_entity", { id });
    expect(created).toMatchObject({
      name: "pTest-mini",
      bases: "ATGCATGCATGCATGCATGC",
      isCircular: true,
      folderId,
    });
    expect(created.annotations[0]).toMatchObject({ name: "tag", start: 0, end: 6, strand: -1 });
    const audit = emulator.admin.auditLog(emulator.demo.tenant);
    expect(audit.some((entry) => JSON.stringify(entry).includes(id))).toBe(true);
  });

  it("refuses bad bases and annotations outside the sequence without a remote request", async () => {
    emulator.requests.clear();
    const folderId = emulator.demo.folders.Backbones as string;
    const bad = await call("labdata_create_dna_sequence", {
      name: "x1",
      bases: "ATGXX",
      folder_id: folderId,
    });
    expect(bad.text).toContain("bases: 'X' is not a DNA base");
    const outside = await call("labdata_create_dna_sequence", {
      name: "x2",
      bases: "ATGC",
      folder_id: folderId,
      annotations: [{ name: "long", type: "CDS", start: 1, end: 9 }],
    });
    expect(outside.text).toContain("does not fit a sequence of 4 bases");
    expect(emulator.requests.count()).toBe(0);
  });

  it("answers 403 for a folder the user may only read", async () => {
    const colleague = await connectInMemory(
      labdataService,
      apiKeyEnv(emulator.demo, emulator.demo.colleague),
    );
    const readOnlyFolder = emulator.demo.folders.Backbones as string;
    expect(
      await call(
        "labdata_create_dna_sequence",
        { name: "nope", bases: "ATGC", folder_id: readOnlyFolder },
        colleague,
      ),
    ).toEqual({ text: "Error: Permission denied. You don't have access to this resource.", isError: true });
    await colleague.close();
  });

  it("is hidden in read-only mode, and every other tool stays", async () => {
    const readOnly = await connectInMemory(
      labdataService,
      apiKeyEnv(emulator.demo, undefined, { MCP_READ_ONLY: "true" }),
    );
    const names = (await readOnly.client.listTools()).tools.map((tool) => tool.name);
    expect(names).not.toContain("labdata_create_dna_sequence");
    expect(names).toEqual(
      labdataService.tools
        .filter((t) => t.annotations.readOnlyHint)
        .map((t) => t.name)
        .sort(),
    );
    await readOnly.close();
  });
});

describe("structured results of the actions (a record of what was done)", () => {
  const structured = async (name: string, args: Record<string, unknown>) => {
    const result = await conn.client.callTool({ name, arguments: args });
    expect(result.isError, textOf(result).text).toBeFalsy();
    return { text: textOf(result).text, data: result.structuredContent as Record<string, unknown> };
  };

  it("labdata_create_dna_sequence: the new id, name, folder, length and topology", async () => {
    const folderId = emulator.demo.folders.Backbones as string;
    const { text, data } = await structured("labdata_create_dna_sequence", {
      name: "pStructured",
      bases: "ATGC ATGC AT",
      folder_id: folderId,
      is_circular: true,
    });
    expect(data).toMatchObject({ name: "pStructured", folder_id: folderId, length: 10, is_circular: true });
    expect(text.startsWith(`Created DNA sequence pStructured (${data.id}).`)).toBe(true);
    expect(await json("labdata_get_entity", { id: data.id })).toMatchObject({ name: "pStructured" });
  });

  it("labdata_export_dna_sequence: the sequence, the format and the size of the export", async () => {
    const id = (await json("labdata_list_entities", { limit: 1 })).entities[0].id;
    const sequence = await json("labdata_get_entity", { id });
    for (const format of ["fasta", "genbank"]) {
      const { text, data } = await structured("labdata_export_dna_sequence", { id, format });
      expect(data).toEqual({
        id,
        name: sequence.name,
        format,
        length: sequence.bases.length,
        bytes: Buffer.byteLength(text),
        resource_uri: `labdata://dna-sequences/${id}/${format}`,
      });
    }
  });

  it("a markdown list answers the envelope of its json text, each item cut to what the text shows", async () => {
    const args = { project_id: emulator.demo.projects["Plasmid Library"], limit: 3 };
    const { data } = await structured("labdata_list_folders", args);
    const whole = await json("labdata_list_folders", args);
    // An item's fields that are null (no archive record) show nothing, and are left out; so is the
    // first page's offset 0 (core/paging.ts briefPage).
    const shown = (fields: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
    const { offset, ...envelope } = whole;
    expect(offset).toBe(0);
    expect(data).toEqual({
      ...envelope,
      folders: whole.folders.map(({ id, name, projectId, archiveRecord }: Record<string, unknown>) =>
        shown({ id, name, projectId, archiveRecord }),
      ),
    });
  });

  it("a markdown answer carries no bases: a DNA sequence, or the plasmid in a container it locates", async () => {
    const id = (await json("labdata_list_entities", { limit: 1 })).entities[0].id;
    const { data: sequence } = await structured("labdata_get_entity", { id });
    expect(sequence).toMatchObject({ id, entityType: "dna_sequence" });
    expect(JSON.stringify(sequence)).not.toMatch(/"(bases|annotations)"/);
    const plasmid = emulator.demo.registry.shRnaPlasmids["pLKO-shRNA-3"];
    for (const format of ["markdown", "json"]) {
      const { data: located } = await structured("labdata_locate", {
        id: plasmid,
        response_format: format,
      });
      expect(JSON.stringify(located)).toContain("pLKO-shRNA-3");
      expect(JSON.stringify(located)).not.toContain('"bases"');
    }
  });
});
