// Bad input: at least 1,000 invalid calls per server, made from the tools' own JSON schemas. Every one
// must be a tool error naming the tool ("Error: Invalid input for <tool>: ..."), reach no remote, and
// leave the server serving. In memory for all of them; a sample over stdio to the built bin.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readsNumberAsText } from "../../packages/lab-mcp/src/core/inputs.js";
import { type Connected, connectInMemory, connectStdio, textOf } from "../support/clients.js";
import { type InvalidCase, invalidCalls, type JsonSchema } from "./schema-cases.js";
import { type RunningTarget, TARGETS } from "./targets.js";

const CALLS_PER_SERVER = 1_000;
const STDIO_SAMPLE = 150;
/** A call that takes longer than this has hung. */
const CALL_TIMEOUT_MS = 5_000;
const RESOURCE_TRICKS = [
  "..",
  "../users/me",
  "..%2F..%2Fusers%2Fme",
  "%2e%2e%2fusers%2fme",
  "..%5C..%5Cwin.ini",
  "a%2Fb",
  "%00",
  "a%00b",
  "a%0Ab",
  "a%20b",
  "a%3Fb%3Dc",
  "%E0%A4%A",
  "%",
];

/**
 * Bugs found by this suite and reported, not yet fixed in the server's code (not this suite's to fix):
 * calls whose "<tool> <label>" starts with one of these are left out, and listed on stdout, until then.
 * - protocols_search takes control characters in `keyword` (packages/lab-mcp/src/services/protocols/tools/search.ts;
 *   labdata and example refuse them since this suite found the same there).
 */
const KNOWN_GAPS: string[] = [];

interface ToolCase extends InvalidCase {
  tool: string;
}

/** Runs the cases a few at a time; returns every case that was not rejected as it should be. */
async function rejectAll(client: Client, cases: ToolCase[], concurrency: number): Promise<string[]> {
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const call = cases[next++] as ToolCase;
      const expected = `Error: Invalid input for ${call.tool}: `;
      try {
        const { text, isError } = textOf(
          await client.callTool({ name: call.tool, arguments: call.args }, undefined, {
            timeout: CALL_TIMEOUT_MS,
          }),
        );
        if (!isError || !text.startsWith(expected)) {
          problems.push(
            `${call.tool} ${call.label}: ${isError ? "error" : "ACCEPTED"}: ${text.slice(0, 160)}`,
          );
        }
      } catch (error) {
        problems.push(`${call.tool} ${call.label}: threw ${String(error).slice(0, 160)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return problems;
}

describe.each(TARGETS)("$serverName", (target) => {
  let running: RunningTarget;
  let tools: Tool[];
  let cases: ToolCase[];
  beforeAll(async () => {
    running = await target.start();
    const connection = await connectInMemory(target.definition, running.env);
    tools = (await connection.client.listTools()).tools;
    await connection.close();
    const perTool = Math.ceil(CALLS_PER_SERVER / tools.length);
    const all = tools.flatMap((tool) =>
      invalidCalls(tool.inputSchema as JsonSchema, running.sampleArgs[tool.name] ?? {}, perTool).map((c) => ({
        ...c,
        tool: tool.name,
      })),
    );
    const known = (c: ToolCase) => KNOWN_GAPS.some((gap) => `${c.tool} ${c.label}`.startsWith(gap));
    // An id-like field reads a whole number as its text (core/inputs.ts takesNumberAsText): not invalid.
    const numberAsText = (c: ToolCase) => {
      const [field, what] = c.label.split(": ");
      const shape = target.definition.tools.find((t) => t.name === c.tool)?.input ?? {};
      const schema = shape[field ?? ""];
      return (
        what?.startsWith("wrong type (number)") === true && schema !== undefined && readsNumberAsText(schema)
      );
    };
    cases = all.filter((c) => !known(c) && !numberAsText(c));
    const left = all.length - cases.length;
    if (left > 0)
      console.log(
        `${target.serverName}: ${left} calls of known, reported gaps left out: ${KNOWN_GAPS.join("; ")}`,
      );
  });
  afterAll(async () => {
    await running?.close();
  });

  const expectProbeWorks = async (client: Client) => {
    const { probe } = running;
    const { text, isError } = textOf(
      await client.callTool({ name: probe.name, arguments: probe.arguments }, undefined, {
        timeout: CALL_TIMEOUT_MS,
      }),
    );
    expect(isError, text).toBe(false);
    expect(text.startsWith(probe.answerStartsWith), text.slice(0, 200)).toBe(true);
  };

  describe("in memory", () => {
    let connection: Connected;
    beforeAll(async () => {
      connection = await connectInMemory(target.definition, running.env);
    });
    afterAll(async () => {
      await connection?.close();
    });

    it(`rejects at least ${CALLS_PER_SERVER} invalid calls, each a tool error, with no remote request`, async () => {
      expect(cases.length).toBeGreaterThanOrEqual(CALLS_PER_SERVER);
      for (const tool of tools)
        expect(
          cases.some((c) => c.tool === tool.name),
          tool.name,
        ).toBe(true);
      running.clearRemoteRequests();
      const problems = await rejectAll(connection.client, cases, 8);
      expect(problems.slice(0, 25), `${problems.length} of ${cases.length} calls not rejected`).toEqual([]);
      expect(running.remoteRequests()).toBe(0);
    }, 60_000);

    it("still serves a valid call afterwards", async () => {
      running.clearRemoteRequests();
      await expectProbeWorks(connection.client);
      expect(running.remoteRequests()).toBeGreaterThanOrEqual(1);
    });

    it("refuses path tricks in resource URIs without asking the remote", async () => {
      const { resourceTemplates } = await connection.client.listResourceTemplates();
      const idTemplates = resourceTemplates.filter((t) => /\{[a-z_]*(id|uri)\}/i.test(t.uriTemplate));
      running.clearRemoteRequests();
      const accepted: string[] = [];
      for (const template of idTemplates) {
        for (const trick of RESOURCE_TRICKS) {
          const uri = template.uriTemplate.replace(/\{[^}]+\}/, trick);
          // URL parsing resolves dot segments ("..", "%2e%2e") before any server code runs: what is
          // left is another, well-formed URI (e.g. protocols://protocols/steps), not a trick.
          if (new URL(uri).href !== uri) continue;
          const outcome = await connection.client.readResource({ uri }, { timeout: CALL_TIMEOUT_MS }).then(
            () => "answered",
            (error: unknown) => (String(error).includes("timed out") ? "hung" : "refused"),
          );
          if (outcome !== "refused") accepted.push(`${uri}: ${outcome}`);
        }
      }
      expect(accepted).toEqual([]);
      expect(running.remoteRequests()).toBe(0);
    });
  });

  describe("over stdio to the built bin", () => {
    let connection: Connected & { stderr: () => string };
    beforeAll(async () => {
      connection = await connectStdio(target.bin, running.env);
    });
    afterAll(async () => {
      await connection?.close();
    });

    it(`rejects a sample of ${STDIO_SAMPLE} of them the same way, and keeps serving`, async () => {
      const step = cases.length / STDIO_SAMPLE;
      const sample = Array.from({ length: STDIO_SAMPLE }, (_, i) => cases[Math.floor(i * step)] as ToolCase);
      running.clearRemoteRequests();
      const problems = await rejectAll(connection.client, sample, 4);
      expect(problems.slice(0, 25), `${problems.length} of ${sample.length} calls not rejected`).toEqual([]);
      expect(running.remoteRequests()).toBe(0);
      await expectProbeWorks(connection.client);
    }, 30_000);
  });
});
