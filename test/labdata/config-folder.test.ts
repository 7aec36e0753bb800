// The user's lab-mcp config folder holds remembered secrets: one made earlier with loose permissions
// (by hand, by an older version, under a lax umask) is made private (0700) when a secret is stored,
// and when one stored there is read.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { expect, it } from "vitest";
import { binPath, textOf } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";

const emulator = useLabdataEmulator();

/** labdata-mcp over stdio with its config folder in `configHome`, and a client whose user types `apiKey`. */
function stdioClient(configHome: string, apiKey: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath("labdata-mcp")],
    env: {
      PATH: process.env.PATH ?? "",
      NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ?? "",
      LABDATA_BASE_URL: emulator.demo.baseUrl,
      XDG_CONFIG_HOME: configHome,
    },
    stderr: "pipe",
  });
  const client = new Client(
    { name: "lab-mcp-tests", version: "1.0.0" },
    { capabilities: { elicitation: { url: {} } } },
  );
  const pages: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const { url } = request.params as { url: string };
    pages.push(url);
    setTimeout(() => {
      void fetch(url, { method: "POST", body: new URLSearchParams({ secret: apiKey, remember: "on" }) });
    }, 5);
    return { action: "accept" };
  });
  return { client, transport, pages };
}

/** A config home whose lab-mcp folder exists with mode 0755. */
function looseConfigHome(): { configHome: string; folder: string } {
  const configHome = mkdtempSync(join(tmpdir(), "labdata-config-home-"));
  const folder = join(configHome, "lab-mcp");
  mkdirSync(folder);
  chmodSync(folder, 0o755);
  return { configHome, folder };
}

it("makes an existing loose config folder 0700 when it reads a key remembered there (stdio bin)", async () => {
  const { configHome, folder } = looseConfigHome();
  const file = join(folder, "labdata.json");
  const remembered = { baseUrl: emulator.demo.baseUrl, apiKey: emulator.demo.user.apiKey };
  writeFileSync(file, JSON.stringify(remembered), { mode: 0o600 });
  const { client, transport, pages } = stdioClient(configHome, "never-typed");
  await client.connect(transport);
  try {
    const result = textOf(await client.callTool({ name: "labdata_get_current_user", arguments: {} }));
    expect(result.isError).toBe(false);
    expect(result.text).toContain(emulator.demo.user.name);
    expect(pages).toHaveLength(0);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  } finally {
    await client.close();
  }
});

it("makes an existing loose config folder 0700 when it stores a remembered key (stdio bin)", async () => {
  const { configHome, folder } = looseConfigHome();
  const { client, transport, pages } = stdioClient(configHome, emulator.demo.user.apiKey);
  await client.connect(transport);
  try {
    const result = textOf(await client.callTool({ name: "labdata_get_current_user", arguments: {} }));
    expect(result.isError).toBe(false);
    expect(pages).toHaveLength(1);
    const file = join(folder, "labdata.json");
    expect(JSON.parse(readFileSync(file, "utf8")).apiKey).toBe(emulator.demo.user.apiKey);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  } finally {
    await client.close();
  }
});
