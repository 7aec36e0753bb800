// A markdown answer's wire bytes (the whole tool result as JSON: text, structured copy, file links) at
// most 3x its text. The tools whose answers are shortest come closest, the page envelope and the
// result's frame weighing as much as a few lines of text; each is called here with its sample call
// (test/support/sample-calls.mjs), as the bench calls every tool, so that a growing envelope fails
// here. The json answer keeps the conventions' whole envelope, and a page that is not the last keeps
// its paging fields.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { exampleService } from "../../packages/lab-mcp/src/services/example/index.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { type Connected, callJson, useInMemoryClient } from "../support/clients.js";
import {
  exampleEnv,
  useExampleEmulator,
  useLabdataEmulator,
  useProtocolsEmulator,
} from "../support/emulator.js";
import { apiKeyEnv } from "../support/labdata.js";
import { clientTokenEnv } from "../support/protocols.js";
import {
  EXAMPLE_SAMPLES,
  LABDATA_SAMPLES,
  labdataDemoIds,
  PROTOCOLS_SAMPLES,
  type SampleCall,
} from "../support/sample-calls.mjs";

const GOAL = 3;

const example = useExampleEmulator();
const labdata = useLabdataEmulator();
const protocols = useProtocolsEmulator();
const exampleClient = useInMemoryClient(exampleService, () => exampleEnv(example));
const labdataClient = useInMemoryClient(labdataService, () =>
  apiKeyEnv(labdata.demo, undefined, { MCP_TOOLSETS: "all", MCP_ALLOW_DESTRUCTIVE: "true" }),
);
const protocolsClient = useInMemoryClient(protocolsService, () => clientTokenEnv(protocols));

/** The markdown answer's text bytes, wire bytes, and their ratio. */
async function measure(connection: Connected, name: string, args: Record<string, unknown>) {
  const result = (await connection.client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, name).toBeFalsy();
  const [first] = result.content;
  const text = Buffer.byteLength(first?.type === "text" ? first.text : "");
  const wire = Buffer.byteLength(JSON.stringify(result));
  return { text, wire, ratio: wire / text, structured: result.structuredContent };
}

/** A sequence the sample calls may archive and unarchive: the first of the list. */
let sequenceId: string;
beforeAll(async () => {
  const page = (await callJson(labdataClient, "labdata_list_entities", { limit: 1 })) as {
    entities: { id: string }[];
  };
  sequenceId = page.entities[0]?.id as string;
});

/** Each of `samples` with the client of its server and the ids of its emulator's demo data. */
function samplesOn<Ids>(
  samples: Record<string, SampleCall<Ids>>,
  connection: () => Connected,
  ids: () => Ids,
) {
  return Object.entries(samples).map(([name, sample]) => ({
    name,
    connection,
    args: () => sample.arguments(ids()),
  }));
}

const SAMPLED = [
  ...samplesOn(
    EXAMPLE_SAMPLES,
    () => exampleClient,
    () => ({}),
  ),
  ...samplesOn(
    LABDATA_SAMPLES,
    () => labdataClient,
    () => labdataDemoIds(labdata.demo, sequenceId),
  ),
  ...samplesOn(
    PROTOCOLS_SAMPLES,
    () => protocolsClient,
    () => ({ protocolId: sampleProtocol() }),
  ),
];

/** The tool's sample call, measured. */
function measureSample(name: string) {
  const sampled = SAMPLED.find((candidate) => candidate.name === name);
  if (!sampled) throw new Error(`no sample call of ${name}`);
  return measure(sampled.connection(), name, sampled.args());
}

describe("a short markdown answer on the wire", () => {
  it("labdata_list_projects, the demo's 3 projects: at most 3x, and no silent envelope fields", async () => {
    const { ratio, structured } = await measureSample("labdata_list_projects");
    expect(ratio).toBeLessThanOrEqual(GOAL);
    expect(structured).toMatchObject({ total: 3, count: 3, total_is_exact: true });
    // First and last page: offset 0, has_more false and next_offset null go without saying.
    for (const silent of ["offset", "has_more", "next_offset"]) expect(structured).not.toHaveProperty(silent);
  });

  it("protocols_list_workspaces with one workspace: at most 3x", async () => {
    const { ratio, structured } = await measureSample("protocols_list_workspaces");
    expect(structured).toMatchObject({ total: 1, count: 1 });
    expect(ratio).toBeLessThanOrEqual(GOAL);
  });

  it.each([
    "example_search_users",
    "labdata_list_folders",
    "labdata_search_dna_bases",
    "labdata_get_current_user",
    "protocols_get_profile",
    "protocols_download_pdf",
  ])("%s: at most 3x", async (name) => {
    const { ratio } = await measureSample(name);
    expect(ratio).toBeLessThanOrEqual(GOAL);
  });

  it("labdata_archive_entities and labdata_unarchive_entities on one sequence: at most 3x", async () => {
    const archive = await measureSample("labdata_archive_entities");
    expect(archive.ratio).toBeLessThanOrEqual(GOAL);
    const unarchive = await measureSample("labdata_unarchive_entities");
    expect(unarchive.structured).toMatchObject({ unarchived: [sequenceId] });
    expect(unarchive.ratio).toBeLessThanOrEqual(GOAL);
  });
});

const projectId = () => labdata.demo.projects["Plasmid Library"] as string;
const sampleProtocol = () => String(protocols.demo.sampleProtocol.id);

describe("what the structured copy keeps", () => {
  it("keeps offset, has_more and next_offset where they say something: a page that is not the first or last", async () => {
    const { structured } = await measure(labdataClient, "labdata_list_folders", {
      project_id: projectId(),
      limit: 1,
      offset: 1,
    });
    expect(structured).toMatchObject({ offset: 1, count: 1, has_more: true, next_offset: 2 });
  });

  it("keeps the conventions' whole envelope in the json answer, and the protocol's uri there", async () => {
    const page = await callJson(labdataClient, "labdata_list_projects", {});
    expect(page).toMatchObject({ total: 3, count: 3, offset: 0, has_more: false, next_offset: null });
    const pdf = await callJson(protocolsClient, "protocols_download_pdf", { protocol: sampleProtocol() });
    expect(pdf).toHaveProperty("uri");
  });
});
