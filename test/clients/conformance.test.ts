// The official MCP conformance suite runs its server scenarios against our streamable HTTP transport, per
// protocol era: every built tool-server bin on its emulator, plus, for the scenarios that call the suite's
// fixed test tools or resources (test_*, test://...), a fixture service built on our core alone
// (createMcpServer + serveHttp). Every scenario the suite has for an era is either run or named here as
// not applying, with why, so a newer suite's new scenarios fail until someone decides.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type SandboxEmulators, startEmulators } from "../../packages/emulators/src/sandbox/emulators.js";
import { SANDBOX_SERVERS } from "../../packages/emulators/src/sandbox/servers.js";
import { createMcpServer } from "../../packages/lab-mcp/src/core/server/factory.js";
import { serveHttp } from "../../packages/lab-mcp/src/core/transport/http.js";
import type { RunningTransport } from "../../packages/lab-mcp/src/core/transport/running.js";
import { type HttpServerProcess, startHttpBin } from "../support/clients.js";
import { conformanceNode, problems, runScenario, type SuiteOptions, serverScenarios } from "./conformance.js";
import { conformanceFixture } from "./conformance-fixture.js";

// Each check starts a client process on Node 22; a busy CI machine may be slow, and the first run
// fetches that Node from the npm registry.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

/** Which of an era's server scenarios our servers answer, and why the others do not apply. */
interface EraPlan {
  specVersion: string;
  /** Asking nothing of a server but the protocol: every product server and the fixture must pass. */
  protocol: string[];
  /** Calling the suite's fixed test tools or resources: the fixture on our core must pass. */
  fixture: string[];
  notApplicable: Record<string, string>;
  /** Checks inside a run scenario that cannot apply to our servers, with why. */
  ignoredChecks?: Record<string, string>;
}

const NO_PROMPTS = "our servers offer no prompts";
const NO_SAMPLING = "no tool asks the client's model (sampling)";
const NO_FORM_ELICITATION =
  "our servers elicit in URL mode only (a secret never goes through a form elicitation)";
const TEXT_ONLY = "tools answer text and structured content, never image or audio blocks";

const ERA_2025_11_25: EraPlan = {
  specVersion: "2025-11-25",
  protocol: [
    "server-initialize",
    "ping",
    "logging-set-level",
    "tools-list",
    "resources-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
  ],
  fixture: [
    "tools-call-simple-text",
    "tools-call-error",
    "tools-call-with-logging",
    "tools-call-with-progress",
    "resources-templates-read",
  ],
  notApplicable: {
    "completion-complete": "our servers offer no argument completion",
    "tools-call-image": TEXT_ONLY,
    "tools-call-audio": TEXT_ONLY,
    "tools-call-mixed-content": TEXT_ONLY,
    "tools-call-embedded-resource":
      "calls the suite's fixed test_embedded_resource tool; our tools embed their files (test/protocols/pdf-resource.test.ts)",
    "tools-call-sampling": NO_SAMPLING,
    "tools-call-elicitation": NO_FORM_ELICITATION,
    "elicitation-sep1034-defaults": NO_FORM_ELICITATION,
    "elicitation-sep1330-enums": NO_FORM_ELICITATION,
    "json-schema-2020-12":
      "needs a tool whose input schema is the suite's literal $defs/$ref document; ours are built from zod",
    "server-sse-polling":
      "SSE resumability (event ids, retry, Last-Event-ID replay): our HTTP transport keeps no event store",
    "resources-read-text": "no resource has a fixed URI: every resource is a template over ids",
    "resources-read-binary": "no resource has a fixed URI: every resource is a template over ids",
    "resources-subscribe": "resources do not change under a client, so no subscriptions",
    "resources-unsubscribe": "resources do not change under a client, so no subscriptions",
    "prompts-list": NO_PROMPTS,
    "prompts-get-simple": NO_PROMPTS,
    "prompts-get-with-args": NO_PROMPTS,
    "prompts-get-embedded-resource": NO_PROMPTS,
    "prompts-get-with-image": NO_PROMPTS,
  },
};

const NEEDS_DIAGNOSTIC_TOOLS =
  "calls the suite's diagnostic tools (test_*) on a server built for them; our input_required path " +
  "(URL elicitation, signed requestState, a forged state refused) is tested in test/transports/bins-in-both-eras.test.ts";

const ERA_2026_07_28: EraPlan = {
  specVersion: "2026-07-28",
  protocol: [
    "server-stateless",
    "tools-list",
    "resources-list",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
    "caching",
    "http-header-validation",
    "input-required-result-unsupported-methods",
    "sep-2164-resource-not-found",
  ],
  fixture: [
    "tools-call-simple-text",
    "tools-call-error",
    "tools-call-with-progress",
    "resources-templates-read",
  ],
  notApplicable: {
    "completion-complete": ERA_2025_11_25.notApplicable["completion-complete"] as string,
    "tools-call-image": TEXT_ONLY,
    "tools-call-audio": TEXT_ONLY,
    "tools-call-mixed-content": TEXT_ONLY,
    "tools-call-embedded-resource": ERA_2025_11_25.notApplicable["tools-call-embedded-resource"] as string,
    "json-schema-2020-12": ERA_2025_11_25.notApplicable["json-schema-2020-12"] as string,
    "resources-read-text": ERA_2025_11_25.notApplicable["resources-read-text"] as string,
    "resources-read-binary": ERA_2025_11_25.notApplicable["resources-read-binary"] as string,
    "prompts-list": NO_PROMPTS,
    "prompts-get-simple": NO_PROMPTS,
    "prompts-get-with-args": NO_PROMPTS,
    "prompts-get-embedded-resource": NO_PROMPTS,
    "prompts-get-with-image": NO_PROMPTS,
    "http-custom-header-server-validation": "no tool declares x-mcp-header parameters (SEP-2243)",
    "input-required-result-basic-elicitation": NEEDS_DIAGNOSTIC_TOOLS,
    "input-required-result-basic-sampling": NO_SAMPLING,
    "input-required-result-basic-list-roots": "no tool asks the client for its roots",
    "input-required-result-request-state": NEEDS_DIAGNOSTIC_TOOLS,
    "input-required-result-multiple-input-requests": NEEDS_DIAGNOSTIC_TOOLS,
    "input-required-result-multi-round": NEEDS_DIAGNOSTIC_TOOLS,
    "input-required-result-missing-input-response": NEEDS_DIAGNOSTIC_TOOLS,
    "input-required-result-non-tool-request": NEEDS_DIAGNOSTIC_TOOLS,
    "input-required-result-result-type": NEEDS_DIAGNOSTIC_TOOLS,
    "input-required-result-tampered-state": NEEDS_DIAGNOSTIC_TOOLS,
    "input-required-result-capability-check": NEEDS_DIAGNOSTIC_TOOLS,
    "input-required-result-ignore-extra-params": NEEDS_DIAGNOSTIC_TOOLS,
    "input-required-result-validate-input": NEEDS_DIAGNOSTIC_TOOLS,
  },
  ignoredChecks: {
    "sep-2575-server-rejects-undeclared-capability":
      "probes the suite's test_missing_capability tool; no tool of ours needs a capability it does not check",
    "sep-2575-missing-capability-http-400": "the HTTP status of that same probe",
    "sep-2575-server-sends-prompts-list-changed-on-subscription":
      "skipped by the suite: no prompts.listChanged",
    "sep-2575-server-sends-tools-list-changed-on-subscription":
      "skipped by the suite: the tool list never changes while a server runs (listChanged: false)",
    "sep-2549-prompts-list-caching-hints": NO_PROMPTS,
    "sep-2549-resources-read-caching-hints": "skipped by the suite: no resource with a fixed URI to read",
  },
};

const ERAS: EraPlan[] = [ERA_2025_11_25, ERA_2026_07_28];

let emulators: SandboxEmulators;
const servers = new Map<string, HttpServerProcess>();
let fixture: RunningTransport;
let node: string;

beforeAll(async () => {
  node = await conformanceNode();
  emulators = await startEmulators();
  for (const spec of SANDBOX_SERVERS) {
    const server = await startHttpBin(spec.bin.replace(/\.js$/, ""), {
      ...spec.env(emulators),
      NODE_EXTRA_CA_CERTS: emulators.caFile,
    });
    servers.set(spec.serverName, server);
  }
  fixture = await serveHttp(
    () => createMcpServer(conformanceFixture, null, { readOnly: false, toolsets: [] }),
    { host: "127.0.0.1", port: 0 },
  );
});

afterAll(async () => {
  await fixture?.close();
  for (const server of servers.values()) await server.stop();
  await emulators?.stop();
});

async function expectPasses(
  url: string,
  scenario: string,
  options: SuiteOptions,
  era: EraPlan,
): Promise<void> {
  const run = await runScenario(url, scenario, options);
  expect(run.checks.length, run.output).toBeGreaterThan(0);
  expect(problems(run, era.ignoredChecks), run.output).toEqual([]);
  // The suite's exit code counts the ignored checks too; with none of them in the run it must be 0.
  const ignoredRan = run.checks.some(
    (check) => check.id in (era.ignoredChecks ?? {}) && check.status !== "SUCCESS" && check.status !== "INFO",
  );
  if (!ignoredRan) expect(run.code, run.output).toBe(0);
}

describe.each(ERAS)("conformance $specVersion", (era) => {
  const options = (): SuiteOptions => ({ node, specVersion: era.specVersion });

  it("has every server scenario of the suite for this era either run or named as not applying", async () => {
    const listed = await serverScenarios(options());
    const planned = [...era.protocol, ...era.fixture, ...Object.keys(era.notApplicable)];
    expect(listed.length).toBeGreaterThan(0);
    expect([...listed].sort()).toEqual([...planned].sort());
  });

  describe.concurrent.each(SANDBOX_SERVERS.map((spec) => spec.serverName))("%s", (serverName) => {
    it.each(era.protocol)("%s", async (scenario) => {
      await expectPasses(servers.get(serverName)?.url as string, scenario, options(), era);
    });
  });

  describe.concurrent("our core with the suite's test tools and resource template (fixture)", () => {
    it.each([...era.protocol, ...era.fixture])("%s", async (scenario) => {
      await expectPasses(fixture.url as string, scenario, options(), era);
    });
  });
});
