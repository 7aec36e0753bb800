// The meta-test: walks every tool of every server as a client sees it (tools/list) and fails on any
// break of the conventions' naming, annotation and input rules.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import { connectInMemory } from "../support/clients.js";
import { ALL_SERVICES } from "../support/services.js";

type JsonSchema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  maxLength?: number;
  format?: string;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  additionalProperties?: unknown;
  anyOf?: JsonSchema[];
};

/** Every rule break of one field, described by its path. */
function fieldProblems(path: string, schema: JsonSchema, isTopLevelField: boolean): string[] {
  const problems: string[] = [];
  if (isTopLevelField && !schema.description?.trim()) problems.push(`${path} has no description`);
  const types = schema.anyOf
    ? schema.anyOf.flatMap((option) => option.type ?? [])
    : [schema.type ?? []].flat();
  if (types.length === 0) problems.push(`${path} has no explicit type`);
  const options = schema.anyOf ?? [schema];
  for (const option of options) {
    // A day (format "date", YYYY-MM-DD) is as long as it is; an enum's values bound it too.
    const bounded = option.enum !== undefined || option.maxLength !== undefined || option.format === "date";
    if (option.type === "string" && !bounded) {
      problems.push(`${path} is a string without maxLength`);
    }
    // The conventions bound an offset below only ("at least 0"); every other number both ways.
    const isOffset = isTopLevelField && path.endsWith(".offset");
    if (
      (option.type === "integer" || option.type === "number") &&
      (option.minimum === undefined || (option.maximum === undefined && !isOffset))
    ) {
      problems.push(`${path} is a number without minimum and maximum`);
    }
    if (option.type === "array") {
      if (option.maxItems === undefined) problems.push(`${path} is a list without maxItems`);
      if (option.items) problems.push(...fieldProblems(`${path}[]`, option.items, false));
    }
    if (option.type === "object") {
      if (option.additionalProperties !== false) problems.push(`${path} accepts unknown fields`);
      for (const [name, child] of Object.entries(option.properties ?? {})) {
        problems.push(...fieldProblems(`${path}.${name}`, child, true));
      }
    }
  }
  return problems;
}

describe.each(ALL_SERVICES)("$definition.serverName", ({ definition, env }) => {
  let tools: Tool[];
  beforeAll(async () => {
    // Every tool, writes included: read-only mode must not hide a tool from this check.
    const connection = await connectInMemory(definition, env);
    tools = (await connection.client.listTools()).tools;
    await connection.close();
  });

  it("is named {service}_mcp", () => {
    expect(definition.serverName).toMatch(/^[a-z][a-z0-9]*_mcp$/);
    expect(definition.serverName).toBe(`${definition.id}_mcp`);
  });

  it("lists every tool it defines", () => {
    expect(tools.map((tool) => tool.name).sort()).toEqual(definition.tools.map((tool) => tool.name).sort());
  });

  it("names tools in snake_case with the service prefix", () => {
    for (const tool of tools) expect(tool.name).toMatch(new RegExp(`^${definition.id}(_[a-z0-9]+)+$`));
  });

  it("gives every tool a title, a description and all five annotations", () => {
    for (const tool of tools) {
      expect(tool.title?.trim(), tool.name).toBeTruthy();
      expect(tool.description?.trim().length, tool.name).toBeGreaterThan(40);
      const annotations = tool.annotations ?? {};
      expect(annotations.title, tool.name).toBe(tool.title);
      for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
        expect(typeof annotations[hint], `${tool.name}.${hint}`).toBe("boolean");
      }
    }
  });

  it("types, describes and bounds every input field, and rejects unknown ones", () => {
    const problems = tools.flatMap((tool) => fieldProblems(tool.name, tool.inputSchema as JsonSchema, false));
    expect(problems).toEqual([]);
  });

  it("takes the shared inputs with the conventions' bounds and defaults wherever it takes them", () => {
    for (const tool of tools) {
      const properties = (tool.inputSchema as JsonSchema).properties ?? {};
      if (properties.limit) {
        expect(properties.limit, tool.name).toMatchObject({
          type: "integer",
          minimum: 1,
          maximum: 100,
          default: 20,
        });
      }
      if (properties.offset)
        expect(properties.offset, tool.name).toMatchObject({ type: "integer", minimum: 0, default: 0 });
      if (properties.response_format) {
        expect(properties.response_format, tool.name).toMatchObject({
          enum: ["markdown", "json"],
          default: "markdown",
        });
      }
      if (properties.offset || properties.limit) expect(properties.response_format, tool.name).toBeDefined();
    }
  });
});

/**
 * The input refusal of a call whose arguments the schema accepts: a tool that needs one of several
 * fields (exactly-one-of) without declaring it. Such a tool must say what it needs in its schema (a
 * required field, or a form per question), so that a client or model can fill it in before calling.
 */
const UNDECLARED_NEED = /^Error: Invalid input for /;

describe.each(ALL_SERVICES)("$definition.serverName's declared needs", ({ definition, env }) => {
  it("never refuses as invalid a call that gives every required field (none: no argument at all)", async () => {
    // The remote is unreachable: a call the schema lets through fails there, not at the input.
    const connection = await connectInMemory(definition, env);
    try {
      const { tools } = await connection.client.listTools();
      const undeclared: string[] = [];
      for (const tool of tools) {
        if ((tool.inputSchema.required ?? []).length > 0) continue;
        const result = await connection.client.callTool({ name: tool.name, arguments: {} });
        const [first] = result.content as Array<{ type: string; text?: string }>;
        if (result.isError && UNDECLARED_NEED.test(first?.text ?? "")) {
          undeclared.push(`${tool.name}: ${first?.text}`);
        }
      }
      expect(undeclared).toEqual([]);
    } finally {
      await connection.close();
    }
  });
});

describe("the walker itself", () => {
  it("catches each kind of break", () => {
    const broken: JsonSchema = {
      type: "object",
      properties: {
        undocumented: { type: "string", maxLength: 5 },
        unbounded: { type: "string", description: "text" },
        endless: { type: "array", description: "list", items: { type: "string", maxLength: 3 } },
        number: { type: "integer", description: "n", minimum: 0 },
        offset: { type: "integer", description: "skip", minimum: 0 },
        day: { type: "string", description: "a day", format: "date" },
        untyped: { description: "anything" },
      },
    };
    expect(fieldProblems("t", broken, false)).toEqual([
      "t accepts unknown fields",
      "t.undocumented has no description",
      "t.unbounded is a string without maxLength",
      "t.endless is a list without maxItems",
      "t.number is a number without minimum and maximum",
      "t.untyped has no explicit type",
    ]);
  });
});
