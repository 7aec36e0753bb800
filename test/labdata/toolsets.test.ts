// Which tools and resources labdata_mcp offers, through a real MCP client against the emulator: the
// default toolsets when MCP_TOOLSETS is unset, `all`, `default,<more>`, single tools by MCP_TOOLS,
// read-only mode over both, unknown names refused at start-up, and resources that follow their
// toolsets (issue 25 item 8: with `sequences` only, no notebook entry, entity or user record).
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../packages/lab-mcp/src/core/start/config.js";
import { loadSettings } from "../../packages/lab-mcp/src/core/start/run.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { callText, connectInMemory } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv } from "../support/labdata.js";

const emulator = useLabdataEmulator();

/** The demo user's settings with `extra`; MCP_TOOLSETS unset unless `extra` sets it. */
function envWith(extra: Record<string, string>): Record<string, string> {
  const { MCP_TOOLSETS: _all, ...env } = apiKeyEnv(emulator.demo);
  return { ...env, ...extra };
}

async function served(extra: Record<string, string>) {
  const connection = await connectInMemory(labdataService, envWith(extra));
  try {
    const tools = (await connection.client.listTools()).tools.map((tool) => tool.name);
    const resources = [
      ...(await connection.client.listResources()).resources.map((resource) => resource.uri),
      ...(await connection.client.listResourceTemplates()).resourceTemplates.map(
        (template) => template.uriTemplate,
      ),
    ];
    return { tools, resources };
  } finally {
    await connection.close();
  }
}

/** Every read, and the sign-out of one's own key; no write (issue 38). */
const DEFAULT_TOOLS = [
  "labdata_describe_warehouse",
  "labdata_export_dna_sequence",
  "labdata_get_box_contents",
  "labdata_get_current_user",
  "labdata_get_entity",
  "labdata_get_entry",
  "labdata_list_assay_results",
  "labdata_list_assay_runs",
  "labdata_list_containers",
  "labdata_list_entities",
  "labdata_list_entries",
  "labdata_list_folders",
  "labdata_list_projects",
  "labdata_list_requests",
  "labdata_list_tasks",
  "labdata_locate",
  "labdata_query_warehouse",
  "labdata_search_dna_bases",
  "labdata_search_entities",
  "labdata_sign_out",
];

/** The writes, and the reads only a write needs (the schemas and templates it takes). */
const WRITES = [
  "labdata_create_dna_sequence",
  "labdata_create_entry",
  "labdata_create_sequences_bulk",
  "labdata_list_entry_templates",
  "labdata_list_registry_schemas",
  "labdata_unarchive_entities",
];

describe("labdata_mcp's toolsets and tools", () => {
  it("serves every read and no write when MCP_TOOLSETS is unset", async () => {
    const { tools } = await served({});
    expect(tools).toEqual(DEFAULT_TOOLS);
    expect((await served({ MCP_TOOLSETS: "default" })).tools).toEqual(tools);
  });

  it("serves every tool with `all`, and the default ones and the writes with `default,writes`", async () => {
    const everything = (await served({ MCP_TOOLSETS: "all" })).tools;
    const defaults = (await served({})).tools;
    expect(everything.length).toBeGreaterThan(defaults.length);
    expect(everything).toContain("labdata_list_tasks");
    expect(everything).not.toContain("labdata_archive_entities");
    const more = (await served({ MCP_TOOLSETS: "default,writes" })).tools;
    expect(more).toEqual([...defaults, ...WRITES].sort((a, b) => (a < b ? -1 : 1)));
    expect(more).toEqual(everything);
  });

  it("adds single tools with MCP_TOOLS, which answer; read-only mode still hides writes", async () => {
    const env = { MCP_TOOLSETS: "users", MCP_TOOLS: "labdata_list_assay_runs,labdata_create_entry" };
    expect((await served(env)).tools).toEqual([
      "labdata_create_entry",
      "labdata_get_current_user",
      "labdata_list_assay_runs",
      "labdata_sign_out",
    ]);
    expect((await served({ ...env, MCP_READ_ONLY: "true" })).tools).toEqual([
      "labdata_get_current_user",
      "labdata_list_assay_runs",
    ]);
    const connection = await connectInMemory(labdataService, envWith(env));
    try {
      expect((await callText(connection, "labdata_list_assay_runs", {})).text).toContain("Found");
      const hidden = await callText(connection, "labdata_list_tasks", {});
      expect(hidden.isError).toBe(true);
      expect(hidden.text).toContain("not enabled on this server");
    } finally {
      await connection.close();
    }
  });

  it("refuses an unknown toolset or tool at start-up, naming the valid ones", () => {
    const load = (extra: Record<string, string>) => () => loadSettings(labdataService, [], envWith(extra));
    expect(load({ MCP_TOOLSETS: "sequences,assays" })).toThrow(ConfigError);
    expect(load({ MCP_TOOLSETS: "sequences,assays" })).toThrow(
      /assays.*known: users, sequences, search, notebook, projects, results, workflows, inventory, warehouse, writes, all, default/,
    );
    expect(load({ MCP_TOOLS: "labdata_get_dna_sequencez" })).toThrow(
      /labdata_get_dna_sequencez.*known: .*labdata_get_current_user/,
    );
  });

  it("lists and reads only the resources of the toolsets served (issue 25 item 8)", async () => {
    const { resources } = await served({ MCP_TOOLSETS: "sequences" });
    expect(resources).toContain("labdata://dna-sequences/{id}/fasta");
    for (const uri of ["labdata://users/me", "labdata://entries/{id}", "labdata://entities/{id}"]) {
      expect(resources).not.toContain(uri);
    }
    const connection = await connectInMemory(labdataService, envWith({ MCP_TOOLSETS: "sequences" }));
    try {
      await expect(connection.client.readResource({ uri: "labdata://users/me" })).rejects.toThrow(
        /No resource of labdata_mcp matches labdata:\/\/users\/me/,
      );
    } finally {
      await connection.close();
    }
    const users = await connectInMemory(labdataService, envWith({ MCP_TOOLSETS: "users" }));
    try {
      const { contents } = await users.client.readResource({ uri: "labdata://users/me" });
      expect(JSON.stringify(contents)).toContain(emulator.demo.user.email);
    } finally {
      await users.close();
    }
  });
});
