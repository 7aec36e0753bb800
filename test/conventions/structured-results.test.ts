// Structured results, the meta-test: every tool lists an output schema of type object, and over the
// reliability targets' runs (every tool with its sample arguments in both formats and past the last
// page, the steady calls, every credential case valid and refused, injected faults, invalid input) each
// success carries structuredContent valid under that schema (checked here with a JSON Schema 2020-12
// validator, not only by the SDK client, which checks only after tools/list) and each error none.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, CallToolResultSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invalidCalls, type JsonSchema } from "../reliability/schema-cases.js";
import { type CredentialCase, type RunningTarget, TARGETS, type ToolCall } from "../reliability/targets.js";
import { connectInMemory } from "../support/clients.js";
import { ALL_SERVICES } from "../support/services.js";

/** Far above what any call here takes; a hang fails instead of stalling the suite. */
const CALL_TIMEOUT_MS = 20_000;
/** Invalid calls per tool: enough to reach every kind of validation error, bounded in time. */
const INVALID_PER_TOOL = 6;

type OutputSchema = NonNullable<Tool["outputSchema"]>;

/** Strict: a keyword or format the validator does not know fails the compile, not silently passes. */
function compile(schema: OutputSchema): ValidateFunction {
  return new Ajv2020({ strict: true, allErrors: true }).compile(schema);
}

/** The JSON types a property's schema allows (its `type`, or the types of its `anyOf` options). */
function typesOf(schema: JsonSchema): string[] {
  const own = schema.type === undefined ? [] : [schema.type].flat();
  return [...own, ...(schema.anyOf ?? []).flatMap(typesOf)];
}

/** A value of a JSON type the property does not allow; undefined when it allows any value. */
function wrongValueFor(schema: JsonSchema): unknown {
  const types = typesOf(schema);
  if (types.length === 0) return undefined;
  const candidates: Array<[string, unknown]> = [
    ["object", { wrong: true }],
    ["array", ["wrong"]],
    ["string", "wrong"],
    ["boolean", true],
    ["null", null],
    ["number", 0.5],
  ];
  return candidates.find(([type]) => !types.includes(type))?.[1];
}

interface Outcome {
  label: string;
  tool: string;
  result: CallToolResult;
  asJson: boolean;
}

/** Every call of the run for one client: samples (both formats, past the end), and extras given. */
function callsFor(tools: Tool[], running: RunningTarget, extra: ToolCall[]): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const tool of tools) {
    const sample = running.sampleArgs[tool.name] ?? {};
    const takes = (tool.inputSchema as JsonSchema).properties ?? {};
    calls.push({ name: tool.name, arguments: sample });
    if (takes.response_format)
      calls.push({ name: tool.name, arguments: { ...sample, response_format: "json" } });
    if (takes.offset) calls.push({ name: tool.name, arguments: { ...sample, offset: 200 } });
    if (takes.step_number) {
      calls.push({ name: tool.name, arguments: { ...sample, step_number: 1 } });
      calls.push({ name: tool.name, arguments: { ...sample, step_number: 1, response_format: "json" } });
    }
  }
  return [...calls, ...extra];
}

async function run(client: Client, label: string, calls: ToolCall[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const call of calls) {
    // A plain tools/call request: the answer as sent, judged here rather than by the SDK client.
    const result = await client.request({ method: "tools/call", params: call }, CallToolResultSchema, {
      timeout: CALL_TIMEOUT_MS,
    });
    outcomes.push({
      label: `${label}: ${call.name} ${JSON.stringify(call.arguments)}`,
      tool: call.name,
      result,
      asJson: call.arguments.response_format === "json",
    });
  }
  return outcomes;
}

describe.each(ALL_SERVICES)("$definition.serverName tools/list", ({ definition, env }) => {
  let tools: Tool[];
  beforeAll(async () => {
    const connection = await connectInMemory(definition, env);
    tools = (await connection.client.listTools()).tools;
    await connection.close();
  });

  it("gives every tool an output schema of type object that a strict validator compiles", () => {
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(() => compile(tool.outputSchema as OutputSchema), tool.name).not.toThrow();
    }
  });
});

describe.each(TARGETS)("$serverName structured results", (target) => {
  let running: RunningTarget;
  let cases: CredentialCase[];
  let tools: Tool[];
  const validators = new Map<string, ValidateFunction>();
  const outcomes: Outcome[] = [];

  beforeAll(async () => {
    running = await target.start();
    running.liftRateLimit();
    cases = await running.credentialCases();
    for (const [index, credential] of cases.entries()) {
      const connection = await connectInMemory(target.definition, credential.env);
      try {
        tools = (await connection.client.listTools()).tools;
        for (const tool of tools) validators.set(tool.name, compile(tool.outputSchema as OutputSchema));
        // The steady calls once, with the first credentials: they are the load runs' calls.
        const extra = index === 0 ? running.steadyCalls : [];
        outcomes.push(...(await run(connection.client, credential.label, callsFor(tools, running, extra))));
        if (index === 0) {
          // A remote fault for every tool, and invalid input that never reaches the remote.
          running.injectFault({ kind: "status", status: 404 }, 1_000);
          const samples = tools.map((tool) => ({
            name: tool.name,
            arguments: running.sampleArgs[tool.name] ?? {},
          }));
          outcomes.push(...(await run(connection.client, "remote 404", samples)));
          running.clearFaults();
          const invalid = tools.flatMap((tool) =>
            invalidCalls(
              tool.inputSchema as JsonSchema,
              running.sampleArgs[tool.name] ?? {},
              INVALID_PER_TOOL,
            )
              .slice(0, INVALID_PER_TOOL)
              .map((c) => ({ name: tool.name, arguments: c.args })),
          );
          outcomes.push(...(await run(connection.client, "invalid input", invalid)));
        }
      } finally {
        running.clearFaults();
        await connection.close();
      }
    }
  }, 180_000);
  afterAll(async () => {
    await running?.close();
  });

  const successes = () => outcomes.filter((o) => o.result.isError !== true);

  it("ran successes and errors of every tool", () => {
    const errors = outcomes.filter((o) => o.result.isError === true);
    for (const tool of tools)
      expect(
        errors.some((o) => o.tool === tool.name),
        tool.name,
      ).toBe(true);
    // protocols_sign_in needs an OAuth sign-in in a browser, which these runs do not drive; its
    // success is validated by test/protocols/sign-in-tool.test.ts through the SDK client.
    const needsBrowser = new Set(["protocols_sign_in"]);
    for (const tool of tools.filter((t) => !needsBrowser.has(t.name)))
      expect(
        successes().some((o) => o.tool === tool.name),
        tool.name,
      ).toBe(true);
  });

  it("answers every success with structuredContent valid under the tool's output schema", () => {
    const problems: string[] = [];
    for (const { label, tool, result } of successes()) {
      const validate = validators.get(tool) as ValidateFunction;
      if (result.structuredContent === undefined) problems.push(`${label}: no structuredContent`);
      else if (!validate(result.structuredContent))
        problems.push(`${label}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    }
    expect(problems).toEqual([]);
  });

  it("says the same as data and as json text: the json format's text parses to the structured content", () => {
    const json = successes().filter((o) => o.asJson);
    expect(json.length).toBeGreaterThan(0);
    for (const { label, result } of json) {
      const [first] = result.content;
      const text = first?.type === "text" ? first.text : "";
      // Some answers stay a sentence in json too (e.g. nothing found); those that are JSON must agree.
      if (!text.startsWith("{")) continue;
      expect(JSON.parse(text), label).toEqual(result.structuredContent);
    }
  });

  it("carries no structuredContent on an error result", () => {
    const errors = outcomes.filter((o) => o.result.isError === true);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.filter((o) => o.result.structuredContent !== undefined).map((o) => o.label)).toEqual([]);
  });

  it("has schemas that refuse a wrong value: each typed field of a real answer, set to a wrong type", () => {
    const checked: string[] = [];
    const accepted: string[] = [];
    for (const tool of tools) {
      const answer = successes().find((o) => o.tool === tool.name)?.result.structuredContent;
      if (!answer) continue;
      const validate = validators.get(tool.name) as ValidateFunction;
      expect(validate(answer), tool.name).toBe(true);
      const properties = (tool.outputSchema as JsonSchema).properties ?? {};
      for (const [field, schema] of Object.entries(properties)) {
        const wrong = wrongValueFor(schema);
        if (wrong === undefined) continue;
        checked.push(`${tool.name}.${field}`);
        if (validate({ ...answer, [field]: wrong }))
          accepted.push(`${tool.name}.${field} = ${JSON.stringify(wrong)}`);
      }
    }
    expect(checked.length).toBeGreaterThan(tools.length);
    expect(accepted).toEqual([]);
  });
});

describe("the validator itself", () => {
  it("refuses a page whose count is text, whose item has a name of the wrong type, or with a field missing", () => {
    const validate = compile({
      type: "object",
      properties: {
        total: { type: "integer" },
        users: {
          type: "array",
          items: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
      },
      required: ["total", "users"],
    });
    expect(validate({ total: 1, users: [{ name: "Ada" }] })).toBe(true);
    expect(validate({ total: "1", users: [{ name: "Ada" }] })).toBe(false);
    expect(validate({ total: 1, users: [{ name: 7 }] })).toBe(false);
    expect(validate({ total: 1 })).toBe(false);
  });

  it("finds a wrong value for a typed field, and none for a field that takes anything", () => {
    expect(wrongValueFor({ type: ["string", "null"] })).toEqual({ wrong: true });
    expect(wrongValueFor({ anyOf: [{ type: "object" }, { type: "null" }] })).toEqual(["wrong"]);
    expect(wrongValueFor({ type: "integer" })).toEqual({ wrong: true });
    expect(wrongValueFor({})).toBeUndefined();
  });
});
