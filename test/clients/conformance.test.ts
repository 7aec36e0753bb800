// The official MCP conformance suite runs its generic server scenarios against our streamable HTTP
// transport: every built tool-server bin on its emulator, plus, for the one scenario that reads a fixed
// test resource (resources-templates-read: test://template/{id}/data), a fixture service built on
// our core alone (createMcpServer + serveHttp), since no product server has that template.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { type SandboxEmulators, startEmulators } from "../../packages/emulators/src/sandbox/emulators.js";
import { SANDBOX_SERVERS } from "../../packages/emulators/src/sandbox/servers.js";
import { boundedString } from "../../packages/lab-mcp/src/core/inputs.js";
import { json } from "../../packages/lab-mcp/src/core/render.js";
import { defineResource } from "../../packages/lab-mcp/src/core/resource.js";
import { createMcpServer, type ServiceDefinition } from "../../packages/lab-mcp/src/core/server.js";
import { type RunningTransport, serveHttp } from "../../packages/lab-mcp/src/core/transport.js";
import { type HttpServerProcess, startHttpBin } from "../support/clients.js";
import { problems, runScenario } from "./conformance.js";

// Each check starts a client process (and, over stdio, a server); a busy CI machine may be slow.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/** The suite's scenarios that ask nothing of a server but the protocol (no test_* tools or resources). */
const GENERIC_SCENARIOS = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "tools-list",
  "resources-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];

/** What resources-templates-read asks for: a template whose reads reflect the parameter. */
const templateFixture: ServiceDefinition<null> = {
  id: "fixture",
  serverName: "fixture_mcp",
  version: "0.0.0",
  instructions: "Conformance fixture: one resource template, test://template/{id}/data.",
  settings: z.object({}),
  tools: [],
  resources: [
    defineResource({
      name: "template_data",
      uriTemplate: "test://template/{id}/data",
      title: "Template data",
      description: "Data for one id, to test parameter substitution.",
      mimeType: "application/json",
      params: { id: boundedString({ description: "Any id.", max: 40 }) },
      async read({ id }) {
        return json({ id, templateTest: true, data: `Data for ID: ${id}` });
      },
    }),
  ],
  createService: () => null,
};

let emulators: SandboxEmulators;
const servers = new Map<string, HttpServerProcess>();
let fixture: RunningTransport;

beforeAll(async () => {
  emulators = await startEmulators();
  for (const spec of SANDBOX_SERVERS) {
    const server = await startHttpBin(spec.bin.replace(/\.js$/, ""), {
      ...spec.env(emulators),
      NODE_EXTRA_CA_CERTS: emulators.caFile,
    });
    servers.set(spec.serverName, server);
  }
  fixture = await serveHttp(() => createMcpServer(templateFixture, null, { readOnly: false, toolsets: [] }), {
    host: "127.0.0.1",
    port: 0,
  });
});

afterAll(async () => {
  await fixture?.close();
  for (const server of servers.values()) await server.stop();
  await emulators?.stop();
});

describe.concurrent.each(SANDBOX_SERVERS.map((spec) => spec.serverName))("conformance: %s", (serverName) => {
  it.each(GENERIC_SCENARIOS)("%s", async (scenario) => {
    const url = servers.get(serverName)?.url as string;
    const run = await runScenario(url, scenario);
    expect(run.checks.length, run.output).toBeGreaterThan(0);
    expect(problems(run), run.output).toEqual([]);
    expect(run.code, run.output).toBe(0);
  });
});

describe("conformance: our core with a resource template (fixture)", () => {
  it.each([...GENERIC_SCENARIOS, "resources-templates-read"])("%s", async (scenario) => {
    const run = await runScenario(fixture.url as string, scenario);
    expect(run.checks.length, run.output).toBeGreaterThan(0);
    expect(problems(run), run.output).toEqual([]);
    expect(run.code, run.output).toBe(0);
  });
});
