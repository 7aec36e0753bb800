// The Claude Desktop bundles: `npm run bundle`, run in a fresh clone with a
// user's environment, builds them with the official mcpb CLI; each manifest
// passes `mcpb validate`, asks for the address and the credential (the secret marked sensitive) and
// offers the optional settings a lab needs (toolsets with writes, the destructive gate, a proxy, an extra
// CA file); the bundled server, unpacked and started exactly as the manifest's mcp_config says (mcpb's
// own substitution of ${__dirname} and ${user_config.*}, defaults included, as Claude Desktop does),
// lists exactly the tools the manifest names, and reaches the emulators through the CA file of the form.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getMcpConfigForManifest, type McpbManifestAny } from "@anthropic-ai/mcpb";
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
  user_config: Record<string, { sensitive?: boolean; required?: boolean; default?: unknown }>;
  tools: Array<{ name: string }>;
}

/** The optional settings every bundle's form offers. */
const LAB_FIELDS = ["toolsets", "allow_destructive", "https_proxy", "ca_file"];

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
  // What the user types into Claude Desktop's form for each bundle: the emulators' CA as the extra CA file.
  const ca_file = testCa().caFile;
  answers["labdata-mcp"] = {
    base_url: `${labdata.demo.baseUrl}/api/v2`,
    api_key: labdata.demo.user.apiKey,
    ca_file,
  };
  answers["protocols-mcp"] = {
    base_url: protocols.url,
    access_token: protocols.demo.clientAccessToken,
    ca_file,
  };
}, 900_000);

afterAll(async () => {
  for (const close of closers) await close();
  for (const cleanup of cleanups) cleanup();
  rmSync(work, { recursive: true, force: true });
});

/** The bundled server started as Claude Desktop starts it, with the form's answers; its client connected. */
async function startBundled(manifest: Manifest, unpacked: string, answers: Record<string, unknown>) {
  const config = await getMcpConfigForManifest({
    manifest: manifest as unknown as McpbManifestAny,
    extensionPath: unpacked,
    systemDirs: {},
    userConfig: answers as never,
    pathSeparator: "/",
  });
  if (!config) throw new Error("mcpb made no server configuration");
  const transport = new StdioClientTransport({
    command: config.command === "node" ? process.execPath : config.command,
    args: config.args ?? [],
    env: { PATH: process.env.PATH ?? "", ...config.env },
    stderr: "pipe",
  });
  const client = new Client({ name: "mcpb-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

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

  it("passes mcpb validate, asks for the address and a sensitive credential, and offers a lab's settings", () => {
    execFileSync(MCPB, ["validate", join(unpacked, "manifest.json")], { stdio: "ignore", timeout: 60_000 });
    const secrets = Object.entries(manifest.user_config).filter(([, field]) => field.sensitive);
    expect(Object.keys(manifest.user_config)).toContain("base_url");
    expect(Object.keys(manifest.user_config)).toEqual(expect.arrayContaining(LAB_FIELDS));
    // Each optional field has a default, so that no placeholder reaches the server unsubstituted.
    for (const field of LAB_FIELDS) expect(manifest.user_config[field]?.default, field).toBeDefined();
    expect(manifest.user_config.toolsets?.default).toBe("default");
    expect(secrets).toHaveLength(1);
    const env = manifest.server.mcp_config.env;
    expect(env).toMatchObject({
      MCP_TOOLSETS: expect.stringContaining("user_config.toolsets"),
      MCP_ALLOW_DESTRUCTIVE: expect.stringContaining("user_config.allow_destructive"),
      HTTPS_PROXY: expect.stringContaining("user_config.https_proxy"),
      NODE_EXTRA_CA_CERTS: expect.stringContaining("user_config.ca_file"),
    });
  });

  it("lists exactly the tools the manifest names, with the form's defaults, and answers", async () => {
    const client = await startBundled(manifest, unpacked, answers[bin] ?? {});
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(manifest.tools.map((tool) => tool.name));
      expect(tools.length).toBeGreaterThan(5);
      // The default offers no write.
      expect(tools.filter((tool) => /_create_|_update_|_archive_/.test(tool.name))).toEqual([]);
      const who = await client.callTool({
        name: bin === "labdata-mcp" ? "labdata_get_current_user" : "protocols_get_profile",
        arguments: {},
      });
      expect(who.isError, JSON.stringify(who.content)).toBeFalsy();
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

  // protocols_mcp with a client token writes nothing, whatever the form says.
  it.skipIf(bin !== "labdata-mcp")("offers the writes when the form asks for them", async () => {
    const client = await startBundled(manifest, unpacked, { ...answers[bin], toolsets: "default,writes" });
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("labdata_create_entry");
      expect(names).not.toContain("labdata_archive_entities");
    } finally {
      await client.close();
    }
  });
});
