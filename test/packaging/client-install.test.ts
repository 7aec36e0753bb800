// Every client's one-line install, from the one table in scripts/client-install.mjs: the README's
// `claude mcp add` line, VS Code install link and Cursor deeplink of each server decode to the same
// command, which starts (the packed product through npx, as a client runs it) and lists its tools
// against the emulator; the Claude Code plugin marketplace declares the same command for each plugin,
// with a skill, and only settings the server takes.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLabdataEmulator } from "../../packages/emulators/src/labdata/index.js";
import { startProtocolsEmulator } from "../../packages/emulators/src/protocols/index.js";
import { settingsOf } from "../../packages/lab-mcp/src/core/start/run.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import {
  claudeCodeLine,
  commandOf,
  cursorLink,
  INSTALLABLE,
  PACKAGE,
  vscodeLink,
  vscodeRedirect,
} from "../../scripts/client-install.mjs";
import { ROOT } from "../support/clients.js";
import { testCa } from "../support/emulator.js";

interface Launch {
  command: string;
  args: string[];
  env: string[];
}

const work = mkdtempSync(join(tmpdir(), "lab-mcp-client-install-"));
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const SETTINGS: Record<string, Set<string>> = {
  "labdata-mcp": new Set(settingsOf(labdataService).map((spec) => spec.env)),
  "protocols-mcp": new Set(settingsOf(protocolsService).map((spec) => spec.env)),
};
const values: Record<string, Record<string, string>> = {};
const closers: Array<() => Promise<void>> = [];
let tarball = "";

beforeAll(async () => {
  // The product as npm would serve it (built by the test run's build), for npx to install.
  execFileSync(
    "npm",
    ["pack", "--workspace", "lab-mcp", "--ignore-scripts", "--silent", "--pack-destination", work],
    { cwd: ROOT, stdio: "ignore", timeout: 120_000 },
  );
  const packed = readdirSync(work).find((name) => name.endsWith(".tgz"));
  if (!packed) throw new Error("npm pack left no tarball");
  tarball = join(work, packed);
  const labdata = await startLabdataEmulator({ ca: testCa() });
  const protocols = await startProtocolsEmulator({ ca: testCa() });
  closers.push(
    () => labdata.close(),
    () => protocols.close(),
  );
  if (!labdata.demo || !protocols.demo) throw new Error("emulators without demo data");
  values["labdata-mcp"] = {
    LABDATA_BASE_URL: labdata.demo.baseUrl,
    LABDATA_API_KEY: labdata.demo.user.apiKey,
  };
  values["protocols-mcp"] = {
    PROTOCOLS_BASE_URL: protocols.url,
    PROTOCOLS_ACCESS_TOKEN: protocols.demo.clientAccessToken,
  };
}, 180_000);

afterAll(async () => {
  for (const close of closers) await close();
  rmSync(work, { recursive: true, force: true });
});

/** `claude mcp add --transport stdio --env K=V ... <name> -- <command> <args...>`, read back. */
function fromClaudeLine(line: string): Launch & { name: string } {
  const [head = "", tail = ""] = line.split(" -- ");
  const words = head.split(" ");
  expect(words.slice(0, 5)).toEqual(["claude", "mcp", "add", "--transport", "stdio"]);
  const env = [...head.matchAll(/--env (\w+)=\S+/g)].map((match) => match[1] as string);
  const [command = "", ...args] = tail.split(" ");
  return { name: words.at(-1) as string, command, args, env };
}

function fromVscodeLink(link: string): Launch & { name: string } {
  expect(link.startsWith("vscode:mcp/install?")).toBe(true);
  const config = JSON.parse(decodeURIComponent(link.slice("vscode:mcp/install?".length)));
  // Every ${input:id} in env is an input VS Code asks for.
  const ids = new Set((config.inputs as Array<{ id: string }>).map((input) => input.id));
  for (const value of Object.values(config.env as Record<string, string>)) {
    expect(ids).toContain(/^\$\{input:(\w+)\}$/.exec(value)?.[1]);
  }
  return { name: config.name, command: config.command, args: config.args, env: Object.keys(config.env) };
}

function fromCursorLink(link: string): Launch & { name: string } {
  const url = new URL(link);
  expect(`${url.protocol}//${url.host}${url.pathname}`).toBe(
    "cursor://anysphere.cursor-deeplink/mcp/install",
  );
  const config = JSON.parse(Buffer.from(url.searchParams.get("config") ?? "", "base64").toString("utf8"));
  return {
    name: url.searchParams.get("name") ?? "",
    command: config.command,
    args: config.args,
    env: Object.keys(config.env),
  };
}

/** Starts `launch` as a client would, the package spec pointed at the packed product, and lists its tools. */
async function listToolsOf(launch: Launch, bin: string): Promise<string[]> {
  const given = values[bin] ?? {};
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args.map((arg) => (arg === PACKAGE ? tarball : arg)),
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? work,
      NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? testCa().caFile,
      ...Object.fromEntries(launch.env.map((name) => [name, given[name] ?? ""])),
    },
    stderr: "pipe",
  });
  const client = new Client({ name: "client-install-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

describe.each(INSTALLABLE)("installing $bin", (server) => {
  it("the README carries its Claude Code line, VS Code link and Cursor link", () => {
    expect(readme).toContain(claudeCodeLine(server));
    expect(readme).toContain(vscodeRedirect(vscodeLink(server)));
    expect(readme).toContain(cursorLink(server));
  });

  it("each client's line decodes to one command, which starts and lists the server's tools", {
    timeout: 240_000,
  }, async () => {
    const launches = [
      fromClaudeLine(claudeCodeLine(server)),
      fromVscodeLink(vscodeLink(server)),
      fromCursorLink(cursorLink(server)),
    ];
    for (const launch of launches) {
      expect(launch.name).toBe(server.name);
      expect({ command: launch.command, args: launch.args }).toEqual(commandOf(server));
      expect(launch.args).toContain(server.bin);
      for (const name of launch.env) expect(SETTINGS[server.bin], name).toContain(name);
    }
    const tools = await listToolsOf(launches[0] as Launch, server.bin);
    expect(tools.length).toBeGreaterThan(5);
    expect(tools.every((name) => name.startsWith(server.bin.split("-")[0] as string))).toBe(true);
  });
});

describe("the Claude Code plugin marketplace", () => {
  const marketplace = JSON.parse(readFileSync(join(ROOT, ".claude-plugin", "marketplace.json"), "utf8"));

  it("names its owner and one plugin per server", () => {
    expect(marketplace.name).toMatch(/^[a-z0-9-]+$/);
    expect(marketplace.owner?.name).toBeTruthy();
    expect(marketplace.plugins.map((plugin: { name: string }) => plugin.name).sort()).toEqual(
      INSTALLABLE.map((server) => server.name).sort(),
    );
  });

  it.each(INSTALLABLE)("$name declares the table's command, real settings and a skill", (server) => {
    const entry = marketplace.plugins.find((plugin: { name: string }) => plugin.name === server.name);
    expect(entry.source).toMatch(/^\.\/plugins\//);
    const dir = join(ROOT, entry.source);
    const manifest = JSON.parse(readFileSync(join(dir, ".claude-plugin", "plugin.json"), "utf8"));
    expect(manifest.name).toBe(server.name);
    const declared = manifest.mcpServers?.[server.name];
    expect({ command: declared.command, args: declared.args }).toEqual(commandOf(server));
    // Each setting comes from the environment Claude Code starts in (${NAME}, or ${NAME:-default}).
    for (const [name, value] of Object.entries(declared.env as Record<string, string>)) {
      expect(SETTINGS[server.bin], name).toContain(name);
      expect(value).toMatch(new RegExp(`^\\$\\{${name}(:-[^}]+)?\\}$`));
    }
    const skills = readdirSync(join(dir, "skills"));
    expect(skills.length).toBeGreaterThan(0);
    for (const skill of skills) {
      const text = readFileSync(join(dir, "skills", skill, "SKILL.md"), "utf8");
      const front = /^---\nname: (\S+)\ndescription: (.+)\n---\n/.exec(text);
      expect(front?.[1]).toBe(skill);
      expect(front?.[2]?.length).toBeGreaterThan(40);
      // The tools a skill names are the server's (or the warehouse one, which comes with its toolset).
      const service = server.bin === "labdata-mcp" ? labdataService : protocolsService;
      const known = new Set([...service.tools.map((tool) => tool.name), "labdata_query_warehouse"]);
      for (const [name] of text.matchAll(/\b(labdata|protocols)_[a-z_]+\b/g))
        expect(known, name).toContain(name);
    }
    expect(existsSync(join(dir, ".claude-plugin", "plugin.json"))).toBe(true);
  });
});
