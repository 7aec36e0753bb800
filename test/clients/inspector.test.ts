// The MCP Inspector CLI (@modelcontextprotocol/inspector, pinned) drives tools/list, tools/call and
// resources/read on every built tool-server bin, over stdio (the bin started by the Inspector with
// -e settings, as the README shows) and over streamable HTTP (behind MCP_HTTP_TOKEN), against the
// emulators with their demo data, and its JSON output and exit codes say what a user would see.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type SandboxEmulators, startEmulators } from "../../packages/emulators/src/sandbox/emulators.js";
import { SANDBOX_SERVERS, type SandboxServerSpec } from "../../packages/emulators/src/sandbox/servers.js";
import { enabledTools } from "../../packages/lab-mcp/src/core/server/toolsets.js";
import { prepare } from "../../packages/lab-mcp/src/core/start/run.js";
import type { ServiceDefinition } from "../../packages/lab-mcp/src/core/start/service.js";
import { binPath, type HttpServerProcess, startHttpBin } from "../support/clients.js";
import { ALL_SERVICES } from "../support/services.js";
import { inspect, toolText } from "./inspector.js";

// Each check starts a client process (and, over stdio, a server); a busy CI machine may be slow.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const HTTP_TOKEN = "inspector-test-token-0123456789abcdef";

/** What to ask each server, and what a user must see. */
interface Checks {
  call: { tool: string; args: string[]; expect: RegExp };
  invalidCall: { tool: string; args: string[]; expect: string };
  resource: (emulators: SandboxEmulators) => { uri: string; expect: RegExp };
  missingResource?: string;
}
const CHECKS: Record<string, Checks> = {
  labdata_mcp: {
    call: {
      tool: "labdata_list_entities",
      args: ["name=Cas9", "limit=2"],
      expect: /^# DNA sequences\n\nFound \d+ sequences \(showing 1–2\)/,
    },
    invalidCall: {
      tool: "labdata_list_entities",
      args: ["limit=0"],
      expect: "Error: Invalid input for labdata_list_entities: limit: must be at least 1.",
    },
    resource: ({ labdata }) => ({
      uri: "labdata://users/me",
      expect: new RegExp(`"email": "${labdata.demo.user.email}"[^]*"authentication": "api_key"`),
    }),
    missingResource: "labdata://dna-sequences/seq_missing00",
  },
  protocols_mcp: {
    call: {
      tool: "protocols_search",
      args: ["keyword=western blot", "limit=2"],
      expect: /^# Protocol search: 'western blot'\n\nFound \d+ public protocols \(showing 1–2\)/,
    },
    invalidCall: {
      tool: "protocols_get_protocol",
      args: ["protocol=../session/profile"],
      expect: "Error: Invalid input for protocols_get_protocol: protocol: must be a protocol id",
    },
    resource: ({ protocols }) => ({
      uri: `protocols://protocols/${protocols.demo.sampleProtocol.id}/steps`,
      expect: /\*\*Step 1\.\*\*/,
    }),
    missingResource: "protocols://protocols/99999999",
  },
  example_mcp: {
    call: { tool: "example_search_users", args: ["query=chen"], expect: /^# User Search Results: 'chen'/ },
    invalidCall: {
      tool: "example_search_users",
      args: ["query=c"],
      expect: "Error: Invalid input for example_search_users: query:",
    },
    resource: () => ({ uri: "example://users/search/chen", expect: /"users": \[/ }),
  },
};

let emulators: SandboxEmulators;
const httpServers = new Map<string, HttpServerProcess>();

beforeAll(async () => {
  emulators = await startEmulators();
  for (const spec of SANDBOX_SERVERS) {
    const server = await startHttpBin(spec.bin.replace(/\.js$/, ""), {
      ...spec.env(emulators),
      NODE_EXTRA_CA_CERTS: emulators.caFile,
      MCP_HTTP_TOKEN: HTTP_TOKEN,
    });
    httpServers.set(spec.serverName, server);
  }
});

afterAll(async () => {
  for (const server of httpServers.values()) await server.stop();
  await emulators?.stop();
});

/** The Inspector's target for a server: the bin with its settings (stdio) or the URL with the token. */
function target(spec: SandboxServerSpec, transport: "stdio" | "http"): string[] {
  if (transport === "http") {
    const server = httpServers.get(spec.serverName) as HttpServerProcess;
    return [server.url, "--transport", "http", "--header", `Authorization: Bearer ${HTTP_TOKEN}`];
  }
  const env = { ...spec.env(emulators), NODE_EXTRA_CA_CERTS: emulators.caFile };
  return [
    ...Object.entries(env).flatMap(([name, value]) => ["-e", `${name}=${value}`]),
    process.execPath,
    binPath(spec.bin.replace(/\.js$/, "")),
  ];
}

const cases = SANDBOX_SERVERS.flatMap((spec) =>
  (["stdio", "http"] as const).map((transport) => ({
    spec,
    transport,
    name: `${spec.serverName} over ${transport}`,
  })),
);

function checksOf(spec: SandboxServerSpec): Checks {
  const checks = CHECKS[spec.serverName];
  if (!checks) throw new Error(`add the Inspector checks of ${spec.serverName} to CHECKS`);
  return checks;
}

describe.concurrent.each(cases)("Inspector CLI: $name", ({ spec, transport }) => {
  const checks = checksOf(spec);

  it("tools/list: every tool, with schemas portable across clients (--strict)", async () => {
    const run = await inspect([...target(spec, transport), "--method", "tools/list", "--strict"]);
    expect(run.code, run.stderr).toBe(0);
    const definition = ALL_SERVICES.find((service) => service.definition.serverName === spec.serverName)
      ?.definition as ServiceDefinition<unknown>;
    const names = (run.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    // Every tool this server's settings offer (the sandbox's protocols server signs in with a client
    // token, so no writes, and none allows destructive tools), in the one order of tools/list: by name.
    const prepared = prepare(definition, [], spec.env(emulators));
    if (prepared.help) throw new Error("unexpected --help");
    const offered = enabledTools(definition, prepared.core, prepared.service).map((tool) => tool.name);
    expect(offered.length).toBeGreaterThan(0);
    expect(names).toEqual(offered.sort());
  });

  it("tools/call: the answer an agent reads", async () => {
    const { tool, args, expect: expected } = checks.call;
    const run = await inspect([
      ...target(spec, transport),
      ...["--method", "tools/call", "--tool-name", tool, "--tool-arg", ...args],
    ]);
    expect(run.code, run.stderr).toBe(0);
    const { text, isError } = toolText(run.result);
    expect(isError).toBe(false);
    expect(text).toMatch(expected);
  });

  it("resources/read: the resource's text", async () => {
    const { uri, expect: expected } = checks.resource(emulators);
    const run = await inspect([...target(spec, transport), "--method", "resources/read", "--uri", uri]);
    expect(run.code, run.stderr).toBe(0);
    const { contents } = run.result as { contents: Array<{ uri: string; text: string }> };
    expect(contents).toHaveLength(1);
    expect(contents[0]?.uri).toBe(uri);
    expect(contents[0]?.text).toMatch(expected);
  });
});

describe.concurrent.each(SANDBOX_SERVERS)("Inspector CLI, failures: $serverName", (spec) => {
  const checks = checksOf(spec);

  it("tools/call with an invalid argument (stdio): a tool error, exit code 5", async () => {
    const { tool, args, expect: expected } = checks.invalidCall;
    const run = await inspect([
      ...target(spec, "stdio"),
      ...["--method", "tools/call", "--tool-name", tool, "--tool-arg", ...args],
    ]);
    expect(run.code).toBe(5);
    expect(run.error?.code).toBe("tool_is_error");
    const { text, isError } = toolText(run.result);
    expect(isError).toBe(true);
    expect(text).toContain(expected);
  });

  const missing = checks.missingResource;
  if (missing) {
    it("resources/read of a missing record (stdio): the not-found text, exit code 1", async () => {
      const run = await inspect([...target(spec, "stdio"), "--method", "resources/read", "--uri", missing]);
      expect(run.code).toBe(1);
      expect(run.error?.message).toBe("Error: Resource not found. Please check the ID is correct.");
    });
  }

  it("HTTP without the bearer token: refused, exit code 3 (auth required)", async () => {
    const server = httpServers.get(spec.serverName) as HttpServerProcess;
    const run = await inspect([
      server.url,
      "--transport",
      "http",
      "--method",
      "tools/list",
      "--stored-auth-only",
    ]);
    expect(run.code).toBe(3);
    expect(run.error?.code).toBe("auth_required");
    expect(run.error?.message).toContain("Unauthorized: send 'Authorization: Bearer <MCP_HTTP_TOKEN>'");
  });
});
