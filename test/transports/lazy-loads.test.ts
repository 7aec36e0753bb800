// What a stdio server loads at start: only what its settings use. The HTTP transport, Redis, the
// Prometheus registry, team mode's JWT library and protocols' HTML and draft converters weigh tens of
// megabytes of idle memory (bench/RESULTS.md, issue 26) and are loaded when a setting or a call needs
// them. An ESM load hook, given to the real bin through NODE_OPTIONS, writes every module it loads.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { connectStdio } from "../support/clients.js";
import { closedPort } from "../support/processes.js";

const UNUSED_OVER_STDIO = [
  "@modelcontextprotocol/node",
  "@hono/node-server",
  "ioredis",
  "prom-client",
  "jose",
  "html-to-text",
  "remarkable",
];

/** The packages a bin loaded from start to its first tools/list answer. */
async function packagesLoaded(bin: string, env: Record<string, string>): Promise<Set<string>> {
  const dir = mkdtempSync(join(tmpdir(), "lazy-loads-"));
  const log = join(dir, "loaded.txt");
  const hook = join(dir, "hook.mjs");
  writeFileSync(
    hook,
    `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + "\\n");
  return next(url, context);
}`,
  );
  const register = join(dir, "register.mjs");
  writeFileSync(
    register,
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(hook).href)});\n`,
  );
  writeFileSync(log, "");
  const connection = await connectStdio(bin, {
    ...env,
    NODE_OPTIONS: `--import=${pathToFileURL(register).href}`,
  });
  try {
    const { tools } = await connection.client.listTools();
    expect(tools.length).toBeGreaterThan(0);
  } finally {
    await connection.close();
  }
  const names = readFileSync(log, "utf8")
    .split("\n")
    .map((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1])
    .filter((name): name is string => name !== undefined);
  return new Set(names);
}

describe("a stdio server loads only what its settings use", () => {
  it.each([
    ["labdata-mcp", { LABDATA_API_KEY: "sk_unused" }],
    ["protocols-mcp", { PROTOCOLS_ACCESS_TOKEN: "unused" }],
  ])(
    "%s answers tools/list without the HTTP transport, Redis, metrics, jose or converters",
    async (bin, own) => {
      const remote = `https://127.0.0.1:${await closedPort()}`;
      const env = { LABDATA_BASE_URL: remote, PROTOCOLS_BASE_URL: remote, ...own };
      const loaded = await packagesLoaded(bin, env);
      expect(loaded.has("zod")).toBe(true);
      expect(UNUSED_OVER_STDIO.filter((name) => loaded.has(name))).toEqual([]);
    },
  );
});
