// The Claude Desktop bundles: `npm run bundle`, run in a fresh clone with a user's environment, builds them with the official mcpb CLI; each manifest
// passes `mcpb validate`, asks for the address and the credential (the secret marked sensitive), and
// the bundled server, unpacked and started exactly as the manifest's mcp_config says (its ${__dirname}
// and ${user_config.*} substituted, as Claude Desktop does), lists its tools against the emulators.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLabdataEmulator } from "../../packages/emulators/src/labdata/index.js";
import { startProtocolsEmulator } from "../../packages/emulators/src/protocols/index.js";
import { cleanCopy, userEnv } from "../support/clean-copy.js";
import { ROOT } from "../support/clients.js";
import { testCa } from "../support/emulator.js";

const work = mkdtempSync(join(tmpdir(), "lab-mcp-mcpb-"));
const MCPB = join(ROOT, "node_modules", ".bin", "mcpb");
const answers: Record<string, Record<string, string>> = {};
const closers: Array<() => Promise<void>> = [];
const cleanups: Array<() => void> = [];

interface Manifest {
  name: string;
  server: { mcp_config: { command: string; args: string[]; env: Record<string, string> } };
  user_config: Record<string, { sensitive?: boolean; required?: boolean }>;
  tools: Array<{ name: string }>;
}

beforeAll(async () => {
  // As a user runs it: `npm run bundle` in a fresh clone, with their shell's environment (no NODE_ENV).
  const clone = cleanCopy();
  cleanups.push(() => rmSync(clone, { recursive: true, force: true }));
  const printed = execFileSync("npm", ["run", "--silent", "bundle", "--", join(work, "out")], {
    cwd: clone,
    env: userEnv(),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    // A child that never exits would block this worker, where no hook timeout can fire.
    timeout: 10 * 60_000,
  });
  // What the script prints is the bundles' paths, one a line, and nothing else.
  expect(printed.trim().split("\n")).toEqual(
    ["labdata-mcp", "protocols-mcp"].map((bin) => join(work, "out", `${bin}-0.1.0.mcpb`)),
  );
  const labdata = await startLabdataEmulator({ ca: testCa() });
  const protocols = await startProtocolsEmulator({ ca: testCa() });
  closers.push(
    () => labdata.close(),
    () => protocols.close(),
  );
  if (!labdata.demo || !protocols.demo) throw new Error("emulators without demo data");
  // What the user types into Claude Desktop's form for each bundle.
  answers["labdata-mcp"] = { base_url: `${labdata.demo.baseUrl}/api/v2`, api_key: labdata.demo.user.apiKey };
  answers["protocols-mcp"] = { base_url: protocols.url, access_token: protocols.demo.clientAccessToken };
}, 900_000);

afterAll(async () => {
  for (const close of closers) await close();
  for (const cleanup of cleanups) cleanup();
  rmSync(work, { recursive: true, force: true });
});

const substitute = (text: string, dir: string, values: Record<string, string>) =>
  text
    // The manifest's own placeholder, written literally (not a template string of ours).
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the mcpb manifest's placeholder syntax
    .replaceAll("${__dirname}", dir)
    .replace(/\$\{user_config\.(\w+)\}/g, (_, key: string) => values[key] ?? "");

describe.each(["labdata-mcp", "protocols-mcp"])("the %s bundle", (bin) => {
  const unpacked = join(work, bin);
  let manifest: Manifest;

  beforeAll(() => {
    const file = readdirSync(join(work, "out")).find(
      (name) => name.startsWith(`${bin}-`) && name.endsWith(".mcpb"),
    );
    if (!file) throw new Error(`no ${bin} bundle`);
    execFileSync(MCPB, ["unpack", join(work, "out", file), unpacked], { stdio: "ignore", timeout: 60_000 });
    manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8"));
  });

  it("passes mcpb validate and asks for the address and a sensitive credential", () => {
    execFileSync(MCPB, ["validate", join(unpacked, "manifest.json")], { stdio: "ignore", timeout: 60_000 });
    const secrets = Object.entries(manifest.user_config).filter(([, field]) => field.sensitive);
    expect(Object.keys(manifest.user_config)).toContain("base_url");
    expect(secrets).toHaveLength(1);
    expect(Object.values(manifest.server.mcp_config.env).join(" ")).toMatch(/\$\{user_config\.\w+\}/);
  });

  it("starts as the manifest says and lists tools the manifest names", async () => {
    const { command, args, env } = manifest.server.mcp_config;
    const values = answers[bin] ?? {};
    const transport = new StdioClientTransport({
      command: command === "node" ? process.execPath : command,
      args: args.map((arg) => substitute(arg, unpacked, values)),
      env: {
        PATH: process.env.PATH ?? "",
        NODE_EXTRA_CA_CERTS: testCa().caFile,
        ...Object.fromEntries(
          Object.entries(env).map(([name, value]) => [name, substitute(value, unpacked, values)]),
        ),
      },
      stderr: "pipe",
    });
    const client = new Client({ name: "mcpb-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      // Every tool served is one the manifest names (some are offered only with other sign-ins).
      const named = manifest.tools.map((tool) => tool.name);
      expect(tools.length).toBeGreaterThan(5);
      expect(tools.map((tool) => tool.name).filter((name) => !named.includes(name))).toEqual([]);
      const who = await client.callTool({
        name: bin === "labdata-mcp" ? "labdata_get_current_user" : "protocols_get_profile",
        arguments: {},
      });
      expect(who.isError).toBeFalsy();
      // The views' pages are in the bundle: each page a tool links to reads from the unpacked copy.
      for (const tool of tools) {
        const uri = (tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
        if (!uri) continue;
        const { contents } = await client.readResource({ uri });
        expect((contents[0] as { text?: string }).text).toMatch(/^<!doctype html>/);
      }
    } finally {
      await client.close();
    }
  });
});
