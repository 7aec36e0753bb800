// The lab's questions of the bench (test/support/lab-questions.mjs; bench/lab-questions.bench.mjs counts
// their cost) still answer on the default surfaces: each scripted path, but the one that reads 2,000
// records, through a real MCP client against the emulators' demo data, with labdata_mcp and
// protocols_mcp as installed (no MCP_TOOLSETS). A tool renamed, an input dropped or an answer that no
// longer says what the seed holds fails here. A path that needs inputs the surface does not list yet is
// skipped until it does, then held; one that needs only a behaviour is left to the bench's table.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { type Connected, connectInMemory } from "../support/clients.js";
import { useLabdataEmulator, useProtocolsEmulator } from "../support/emulator.js";
import {
  LAB_QUESTIONS,
  type LabSeed,
  labSeed,
  missingFromAnswer,
  missingInputs,
} from "../support/lab-questions.mjs";
import { apiKeyEnv } from "../support/labdata.js";
import { basic, fetchReply } from "../support/labdata-http.js";
import { clientTokenEnv } from "../support/protocols.js";

const labdata = useLabdataEmulator({ warehouse: { tenants: ["acme"] } });
const protocols = useProtocolsEmulator();

/** Settings as the user gives them: no MCP_TOOLSETS, the default surface. */
function defaultSurface(env: Record<string, string>): Record<string, string> {
  const { MCP_TOOLSETS: _all, ...rest } = env;
  return rest;
}

const servers: Record<string, { connection: Connected; tools: Tool[] }> = {};
let seed: LabSeed;

beforeAll(async () => {
  const { demo } = labdata;
  const warehouse = await labdata.warehouse(demo.tenant);
  seed = await labSeed({
    labdataDemo: demo,
    protocolsEmulator: protocols,
    getJson: async (path) => {
      const reply = await fetchReply(`${labdata.tenant(demo.tenant).apiUrl}${path}`, {
        authorization: basic(demo.user.apiKey),
      });
      if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${reply.text}`);
      return reply.body;
    },
  });
  const settings = {
    labdata: [labdataService, apiKeyEnv(demo, demo.user, { LABDATA_WAREHOUSE_URL: warehouse.url })],
    protocols: [protocolsService, clientTokenEnv(protocols)],
  } as const;
  for (const [name, [definition, env]] of Object.entries(settings)) {
    // biome-ignore lint/suspicious/noExplicitAny: two services' definitions, each with its own settings type
    const connection = await connectInMemory(definition as any, defaultSurface(env));
    servers[name] = { connection, tools: (await connection.client.listTools()).tools };
  }
});

afterAll(async () => {
  for (const server of Object.values(servers)) await server.connection.close();
});

describe("the lab's questions on the default surfaces", () => {
  for (const question of LAB_QUESTIONS) {
    for (const path of question.paths) {
      if (path.heavy || (path.needs && !path.needs.inputs)) continue;
      it(`${question.id}, ${path.name}: ${question.question}`, async (context) => {
        const server = servers[question.server];
        if (!server) throw new Error(`no server ${question.server}`);
        if (missingInputs(path, server.tools).length > 0) return context.skip();
        const agent = {
          async call(name: string, args: Record<string, unknown> = {}) {
            const result = await server.connection.client.callTool({ name, arguments: args });
            const text = (result.content as Array<{ type: string; text?: string }>)
              .filter((block) => block.type === "text")
              .map((block) => block.text)
              .join("\n");
            expect(result.isError, `${name}: ${text}`).toBeFalsy();
            return { text, data: result.structuredContent };
          },
        };
        const answer = await path.run(agent, seed);
        expect(missingFromAnswer(path, seed, answer), answer.slice(0, 600)).toEqual([]);
      });
    }
  }
});
