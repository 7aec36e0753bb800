// The views (MCP Apps) as the protocol carries them: each linked from its tool's `_meta` and served as a
// `ui://` resource where the tool is; the extension declared by the server. A client without the
// extension reads exactly the answer it read before; one that declares it (per session, or per request
// in the 2026-07-28 era) gets the whole structured copy its view draws from. The pages in a browser:
// test/views/.
import { describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { connectInMemory, connectModernInMemory, textOf, useInMemoryClient } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv } from "../support/labdata.js";

const MIME_TYPE = "text/html;profile=mcp-app";
const RENDERS_VIEWS = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [MIME_TYPE] } } };

const emulator = useLabdataEmulator();
const plain = useInMemoryClient(labdataService, () => apiKeyEnv(emulator.demo));
const viewing = useInMemoryClient(labdataService, () => apiKeyEnv(emulator.demo), RENDERS_VIEWS);
const plasmid = () => emulator.demo.registry.shRnaPlasmids["pLKO-shRNA-1"] as string;

describe("views in tools/list and resources", () => {
  it("links five tools to three views, declares the extension, and serves each page", async () => {
    expect(plain.client.getServerCapabilities()?.extensions).toEqual({ "io.modelcontextprotocol/ui": {} });
    const { tools } = await plain.client.listTools();
    const links = Object.fromEntries(
      tools.filter((tool) => tool._meta).map((tool) => [tool.name, tool._meta]),
    );
    expect(links).toEqual({
      labdata_export_dna_sequence: { ui: { resourceUri: "ui://labdata/plasmid-map" } },
      labdata_get_box_contents: { ui: { resourceUri: "ui://labdata/box-map" } },
      labdata_get_entity: { ui: { resourceUri: "ui://labdata/plasmid-map" } },
      labdata_list_assay_results: { ui: { resourceUri: "ui://labdata/chart" } },
      labdata_query_warehouse: { ui: { resourceUri: "ui://labdata/chart" } },
    });
    const { resources } = await plain.client.listResources();
    const views = resources.filter((resource) => resource.uri.startsWith("ui://"));
    expect(views.map((view) => [view.uri, view.mimeType])).toEqual([
      ["ui://labdata/plasmid-map", MIME_TYPE],
      ["ui://labdata/box-map", MIME_TYPE],
      ["ui://labdata/chart", MIME_TYPE],
    ]);
    for (const view of views) {
      const { contents } = await plain.client.readResource({ uri: view.uri });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri: view.uri, mimeType: MIME_TYPE });
      const html = (contents[0] as { text: string }).text;
      expect(html).toMatch(/^<!doctype html>/);
      expect(html).toContain(`content="default-src 'none'; script-src 'sha256-`);
    }
  });

  it("serves a view only where a tool that links to it is offered", async () => {
    const sequencesOnly = await connectInMemory(
      labdataService,
      apiKeyEnv(emulator.demo, undefined, { MCP_TOOLSETS: "sequences" }),
    );
    try {
      const { resources } = await sequencesOnly.client.listResources();
      expect(resources.filter((resource) => resource.uri.startsWith("ui://")).map((r) => r.uri)).toEqual([
        "ui://labdata/plasmid-map",
      ]);
      await expect(sequencesOnly.client.readResource({ uri: "ui://labdata/chart" })).rejects.toThrow(
        /No resource of labdata_mcp matches ui:\/\/labdata\/chart/,
      );
    } finally {
      await sequencesOnly.close();
    }
  });
});

describe("answers with and without the extension", () => {
  it("keeps the text whole for both, and the structured copy brief for a client without views", async () => {
    const args = { name: "labdata_get_entity", arguments: { id: plasmid() } };
    const before = await plain.client.callTool(args);
    const after = await viewing.client.callTool(args);
    expect(textOf(after).text).toBe(textOf(before).text);
    // Only what the output schema declares, as before the views.
    const declared = [
      "archiveRecord",
      "entityRegistryId",
      "entityType",
      "folderId",
      "id",
      "length",
      "name",
      "schema",
    ];
    for (const key of Object.keys(before.structuredContent ?? {})) expect(declared).toContain(key);
    expect(before.structuredContent).not.toHaveProperty("annotations");
    expect(after.structuredContent).toMatchObject({ isCircular: true, name: "pLKO-shRNA-1" });
    expect(
      (after.structuredContent as { annotations: Array<{ name: string }> }).annotations.map((a) => a.name),
    ).toContain("shTP53 hairpin");
  });

  it("adds the export's record for a client that draws it, and nothing for the others", async () => {
    const args = { name: "labdata_export_dna_sequence", arguments: { id: plasmid(), format: "genbank" } };
    const before = await plain.client.callTool(args);
    const after = await viewing.client.callTool(args);
    expect(textOf(after).text).toBe(textOf(before).text);
    expect(before.structuredContent).not.toHaveProperty("sequence");
    expect(after.structuredContent).toMatchObject({
      id: plasmid(),
      format: "genbank",
      sequence: { id: plasmid(), isCircular: true },
    });
    expect((after.structuredContent as { sequence: object }).sequence).not.toHaveProperty("bases");
  });

  it("reads the extension from a 2026-07-28 request's own capabilities", async () => {
    const modern = await connectModernInMemory(labdataService, apiKeyEnv(emulator.demo), RENDERS_VIEWS);
    const bare = await connectModernInMemory(labdataService, apiKeyEnv(emulator.demo));
    try {
      const args = {
        name: "labdata_get_box_contents",
        arguments: { id: emulator.demo.registry.glycerolBoxId },
      };
      const drawn = (await modern.client.callTool(args)) as { structuredContent: { containers: object[] } };
      const brief = (await bare.client.callTool(args)) as { structuredContent: { containers: object[] } };
      expect(drawn.structuredContent.containers[0]).toHaveProperty("createdAt");
      expect(brief.structuredContent.containers[0]).not.toHaveProperty("createdAt");
    } finally {
      await modern.close();
      await bare.close();
    }
  });
});
