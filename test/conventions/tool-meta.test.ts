// Meta-tests over every tool of every server (as getsentry/sentry-mcp keeps them): each tool is called
// by some test, its description stays under a ceiling, and its file is named after it.
import { readdirSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { AnyTool } from "../../packages/lab-mcp/src/core/tool.js";
import { ROOT } from "../support/clients.js";
import { ALL_SERVICES } from "../support/services.js";
import { toolCallers } from "./tool-calls.js";

/**
 * The longest description a tool may have, in characters. A description says when to use the tool,
 * what it returns and which tool finds the ids it takes; ours do that in 250 to 400 characters. An
 * agent loads the descriptions of all three servers into its context on every turn, so 512 characters
 * (about 120 tokens) a tool keeps that cost small as tools are added, and stays well under the 1,024
 * characters at which function-calling APIs that clients bridge MCP tools to cut a description off.
 */
const DESCRIPTION_CEILING = 512;

const SERVICES_DIR = join(ROOT, "packages", "lab-mcp", "src", "services");
const TEST_DIR = join(ROOT, "test");

const tools = ALL_SERVICES.flatMap(({ definition }) =>
  definition.tools.map((tool) => ({ service: definition.id, tool })),
);

function testSources(): Map<string, string> {
  const sources = new Map<string, string>();
  for (const entry of readdirSync(TEST_DIR, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const path = join(entry.parentPath, entry.name);
    sources.set(path, readFileSync(path, "utf8"));
  }
  return sources;
}

/** kebab-case file name of a tool: its name without the service prefix. */
function expectedFile(service: string, toolName: string): string {
  return `${toolName.slice(service.length + 1).replaceAll("_", "-")}.ts`;
}

function isTool(value: unknown): value is AnyTool<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { name?: unknown }).name === "string" &&
    typeof (value as { handler?: unknown }).handler === "function" &&
    typeof (value as { annotations?: unknown }).annotations === "object"
  );
}

describe("every tool", () => {
  it("is called by at least one test (through a client's callTool or a helper that reaches it)", () => {
    const callers = toolCallers(
      testSources(),
      tools.map(({ tool }) => tool.name),
    );
    const uncalled = [...callers].filter(([, files]) => files.length === 0).map(([name]) => name);
    expect(uncalled, "tools no test calls").toEqual([]);
  });

  it(`has a description of at most ${DESCRIPTION_CEILING} characters`, () => {
    const long = tools
      .filter(({ tool }) => tool.description.length > DESCRIPTION_CEILING)
      .map(({ tool }) => `${tool.name}: ${tool.description.length}`);
    expect(long).toEqual([]);
  });

  it("lives in tools/<its name without the prefix>.ts, one tool a file, every file a registered tool", async () => {
    const problems: string[] = [];
    for (const { definition } of ALL_SERVICES) {
      const dir = join(SERVICES_DIR, definition.id, "tools");
      const registered = new Map(definition.tools.map((tool) => [tool.name, tool]));
      for (const file of readdirSync(dir).filter((name) => name.endsWith(".ts"))) {
        const where = relative(ROOT, join(dir, file));
        const module: Record<string, unknown> = await import(pathToFileURL(join(dir, file)).href);
        const declared = Object.values(module).filter(isTool);
        if (declared.length !== 1) {
          problems.push(`${where} declares ${declared.length} tools, not one`);
          continue;
        }
        const [tool] = declared as [AnyTool<unknown>];
        if (expectedFile(definition.id, tool.name) !== basename(file))
          problems.push(`${where} declares ${tool.name}: name it ${expectedFile(definition.id, tool.name)}`);
        if (registered.get(tool.name) !== tool) problems.push(`${where}: ${tool.name} is not registered`);
        registered.delete(tool.name);
      }
      for (const name of registered.keys())
        problems.push(`${name} has no file ${expectedFile(definition.id, name)}`);
    }
    expect(problems).toEqual([]);
  });
});

/** Tools that make or forget the caller's credential: nothing to climb before them. */
const MANAGES_CREDENTIAL = /_sign_(in|out)$/;
/** How a description tells what a tool does for a caller without a credential. */
const WITHOUT_CREDENTIAL = /without (a )?sign-in|anonymous/i;

describe("what each tool needs of the caller's credential (`credential`, decided at the tool-call boundary)", () => {
  it("is none for the tools that make or forget it, one for every other tool, optional only where the description says so", () => {
    const wrong = ALL_SERVICES.flatMap(({ definition }) =>
      definition.tools.flatMap((tool) => {
        const need = tool.credential ?? "required";
        if (!definition.credentials) {
          return tool.credential === undefined
            ? []
            : [`${tool.name} declares "${need}" on a service without a credential source`];
        }
        if (MANAGES_CREDENTIAL.test(tool.name)) {
          return need === "none"
            ? []
            : [`${tool.name} makes or forgets the credential: it must declare "none"`];
        }
        if (need === "none") return [`${tool.name} reaches the remote: it needs the caller's credential`];
        // An agent must know what such a call does for nobody in particular.
        if (need === "optional" && !WITHOUT_CREDENTIAL.test(tool.description)) {
          return [`${tool.name} works without a credential: its description must say what it does then`];
        }
        return [];
      }),
    );
    expect(wrong).toEqual([]);
  });

  it("is one for every resource of a service with a credential source (a read reaches the remote)", () => {
    const wrong = ALL_SERVICES.flatMap(({ definition }) =>
      (definition.resources ?? []).flatMap((resource) =>
        definition.credentials && resource.credential === "none" ? [resource.name] : [],
      ),
    );
    expect(wrong).toEqual([]);
  });
});

describe("the scan of tool calls (tool-calls.ts)", () => {
  it("finds direct calls and calls through helpers, and ignores mere mentions", () => {
    const helper = join(TEST_DIR, "virtual", "helper.ts");
    const caller = join(TEST_DIR, "virtual", "caller.test.ts");
    const sources = new Map([
      [
        helper,
        `export async function run(name: string) { return client.callTool({ name, arguments: {} }); }`,
      ],
      [
        caller,
        [
          `import { run } from "./helper.js";`,
          `await client.callTool({ name: "a_direct" });`,
          `await run("a_helper");`,
          `describe("a_mentioned", () => {});`,
        ].join("\n"),
      ],
    ]);
    const callers = toolCallers(sources, ["a_direct", "a_helper", "a_mentioned"]);
    expect(callers.get("a_direct")).toEqual([caller]);
    expect(callers.get("a_helper")).toEqual([caller]);
    expect(callers.get("a_mentioned")).toEqual([]);
  });
});
