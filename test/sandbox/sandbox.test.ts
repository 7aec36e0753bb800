// npm start: the built lab-sandbox bin brings up the emulators and every tool server over HTTP on
// consecutive ports, prints what a user pastes into a client, serves every tool through that
// configuration, and stops everything on Ctrl-C; a taken port or a bad option is one clear line.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StdioClientTransport as ModernStdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_SERVERS } from "../../packages/emulators/src/sandbox/servers.js";
import { connectHttp, connectModernHttp, newModernClient, textOf } from "../support/clients.js";
import {
  EXAMPLE_SAMPLES,
  LABDATA_SAMPLES,
  type LabdataIds,
  PROTOCOLS_SAMPLES,
  type ProtocolsIds,
  type SampleCall,
} from "../support/sample-calls.mjs";
import { configBlock, freePorts, isFree, type RunningBin, runBin, waitFor } from "./processes.js";

const PORTS = SANDBOX_SERVERS.length;

/** What the test asks of a client, whichever SDK (and protocol era) it comes from. */
interface EraClient {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  close(): Promise<void>;
}

/** Every tool's sample call, by name; the sandbox finds the ids through the tools themselves. */
const SAMPLES: Record<string, SampleCall<LabdataIds & ProtocolsIds>> = {
  ...EXAMPLE_SAMPLES,
  ...LABDATA_SAMPLES,
  ...PROTOCOLS_SAMPLES,
};
/**
 * Tools whose answer in the sandbox is, rightly, an error, and what it says: protocols_mcp is signed
 * in with a client token, so there is no OAuth sign-in to start and nothing it may write.
 */
const NOT_APPLICABLE: Record<string, string> = {
  protocols_sign_in: "The server already uses the client token in PROTOCOLS_ACCESS_TOKEN.",
  ...Object.fromEntries(
    [
      "protocols_create_draft",
      "protocols_update_draft",
      "protocols_set_steps",
      "protocols_insert_step",
      "protocols_edit_step",
      "protocols_delete_step",
    ].map((name) => [name, "Writing protocols needs a signed-in account (OAuth)"]),
  ),
};
describe("lab-sandbox", () => {
  let port: number;
  let sandbox: RunningBin;
  let downloads: string;
  const endpoint = (serverName: string) => {
    const spec = SANDBOX_SERVERS.find((server) => server.serverName === serverName);
    if (!spec) throw new Error(`no ${serverName} in the sandbox`);
    return `http://127.0.0.1:${port + spec.portOffset}/mcp`;
  };

  beforeAll(async () => {
    port = await freePorts(PORTS);
    downloads = mkdtempSync(join(tmpdir(), "sandbox-test-downloads-"));
    // Settings of a real tenant in the user's shell must not leak into the sandbox's servers.
    sandbox = runBin("lab-sandbox", ["--port", String(port)], {
      LABDATA_CLIENT_ID: "real-tenant-app",
      LABDATA_CLIENT_SECRET: "real-tenant-secret",
      PROTOCOLS_TOKEN_FILE: join(downloads, "tokens.json"),
      MCP_READ_ONLY: "true",
      PROTOCOLS_DOWNLOAD_DIR: downloads,
    });
    await waitFor(() => sandbox.output().includes("paste it again after a restart"), "the banner");
  });

  afterAll(async () => {
    if (sandbox.child.exitCode === null) sandbox.child.kill("SIGINT");
    await sandbox.exited();
    rmSync(downloads, { recursive: true, force: true });
  });

  it("prints every endpoint with its identity, the demo identities and the client configurations", () => {
    const banner = sandbox.stdout();
    expect(banner).toMatch(
      new RegExp(
        `labdata_mcp +${endpoint("labdata_mcp")} +signed in as Mira Patel <mira.patel@acme.example>`,
      ),
    );
    expect(banner).toMatch(
      new RegExp(`protocols_mcp +${endpoint("protocols_mcp")} +signed in as Ada Okafor \\(ada-okafor\\)`),
    );
    expect(banner).toMatch(new RegExp(`example_mcp +${endpoint("example_mcp")} `));
    expect(banner).toMatch(/API key of mira\.patel@acme\.example: sk_\S+/);
    expect(banner).toMatch(/CLIENT_ACCESS_TOKEN of "Lab MCP demo" \(owner ada-okafor\): [0-9a-f]{16,}/);
    expect(banner).toMatch(/CA certificate +\/\S+ca\.pem/);
    expect(banner).toMatch(
      /data warehouse postgres:\/\/127\.0\.0\.1:\d+\/warehouse {2}\(PostgreSQL, TLS only/,
    );

    const keys = SANDBOX_SERVERS.map((server) => server.key);
    const vscode = configBlock(banner, "VS Code (HTTP)") as { servers: Record<string, { url: string }> };
    expect(Object.keys(vscode.servers)).toEqual(keys);
    const cursor = configBlock(banner, "Cursor (HTTP)") as { mcpServers: Record<string, { url: string }> };
    expect(Object.keys(cursor.mcpServers)).toEqual(keys);
    for (const spec of SANDBOX_SERVERS) {
      expect(vscode.servers[spec.key]).toEqual({ type: "http", url: endpoint(spec.serverName) });
      expect(cursor.mcpServers[spec.key]).toEqual({ url: endpoint(spec.serverName) });
    }
  });

  /**
   * Lists and calls every tool of every server (by its key in the printed configurations), through
   * clients that `connect` makes (of either protocol era, over HTTP or stdio), then reads the PDF the
   * download links.
   */
  const callEveryTool = async (connect: (key: string) => Promise<EraClient>, { readPdf = true } = {}) => {
    const clients: Record<string, EraClient> = {};
    try {
      const toolsOf: Record<string, string[]> = {};
      for (const { key } of SANDBOX_SERVERS) {
        const client = await connect(key);
        clients[key] = client;
        toolsOf[key] = (await client.listTools()).tools.map((tool) => tool.name);
      }
      // The shell's MCP_READ_ONLY did not reach the servers: the sign-out (not read-only) is there. The
      // servers run the default surface, what a user's install gets: every read, no write.
      expect(toolsOf["lab-data"]).toContain("labdata_sign_out");
      expect(toolsOf["lab-data"]).toContain("labdata_list_assay_results");
      expect(toolsOf["lab-data"]).not.toContain("labdata_create_dna_sequence");
      expect(toolsOf["lab-protocols"]).toContain("protocols_list_workspaces");

      const json = async (key: string, name: string, args: Record<string, unknown>) => {
        const client = clients[key] as EraClient;
        const result = textOf(
          await client.callTool({ name, arguments: { ...args, response_format: "json" } }),
        );
        expect(result.isError, result.text).toBe(false);
        return JSON.parse(result.text);
      };
      const sequences = await json("lab-data", "labdata_list_entities", { limit: 1 });
      const folders = await json("lab-data", "labdata_list_folders", { limit: 100 });
      const protocols = await json("lab-protocols", "protocols_search", {
        keyword: "western blot",
        limit: 1,
      });
      const backbones = folders.folders.find((folder: { name: string }) => folder.name === "Backbones");
      const entries = await json("lab-data", "labdata_list_entries", { folder_id: backbones.id, limit: 1 });
      const containers = await json("lab-data", "labdata_list_containers", { name: "glycerol stock" });
      const ids: LabdataIds & ProtocolsIds = {
        projectId: backbones.projectId,
        folderId: backbones.id,
        sequenceId: sequences.entities[0].id,
        containerId: containers.containers[0].id,
        boxId: containers.containers[0].parentStorageId,
        entryId: entries.entries[0].id,
        // The multiple cloning site of the demo's backbones.
        bases: "CTCGAGAAGCTTGGATCC",
        protocolId: String(protocols.protocols[0].id),
      };

      let pdf: { content: Array<{ type: string; uri?: string; mimeType?: string }> } | undefined;
      for (const [key, names] of Object.entries(toolsOf)) {
        for (const name of names) {
          const sample = SAMPLES[name];
          expect(sample, `add a sample call of ${name} to test/support/sample-calls.mjs`).toBeDefined();
          const client = clients[key] as EraClient;
          const args = sample?.arguments(ids) ?? {};
          if (name in NOT_APPLICABLE) {
            const result = textOf(await client.callTool({ name, arguments: args }));
            expect(result.text).toContain(NOT_APPLICABLE[name]);
            continue;
          }
          const answer = await client.callTool({ name, arguments: args });
          if (name === "protocols_download_pdf") pdf = answer as typeof pdf;
          const result = textOf(answer);
          expect(result.isError, `${name}: ${result.text}`).toBe(false);
        }
      }
      const protocolsClient = clients["lab-protocols"] as EraClient;
      const link = pdf?.content.find((block) => block.type === "resource_link");
      expect(link).toMatchObject({ mimeType: "application/pdf" });
      // Five PDFs over the whole file: the repository allows five a minute, and a sixth would wait.
      if (!readPdf) return;
      const { contents } = await protocolsClient.readResource({ uri: link?.uri as string });
      const [content] = contents as Array<{ mimeType?: string; blob?: string }>;
      expect(content?.mimeType).toBe("application/pdf");
      expect(
        Buffer.from(content?.blob ?? "", "base64")
          .subarray(0, 5)
          .toString("latin1"),
      ).toBe("%PDF-");
    } finally {
      for (const client of Object.values(clients)) await client.close();
    }
  };

  const vscodeUrl = (key: string) => {
    const vscode = configBlock(sandbox.stdout(), "VS Code (HTTP)") as {
      servers: Record<string, { url: string }>;
    };
    return vscode.servers[key]?.url as string;
  };
  const claudeConfig = (key: string) => {
    const claude = configBlock(sandbox.stdout(), "Claude Desktop (stdio)") as {
      mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    };
    return claude.mcpServers[key] as { command: string; args: string[]; env: Record<string, string> };
  };
  const pdfsSaved = () =>
    (existsSync(downloads) ? readdirSync(downloads) : []).filter((f) => f.endsWith(".pdf"));

  it("serves every tool of every server to a client connected with the printed VS Code configuration", async () => {
    await callEveryTool(async (key) => {
      const { client, close } = await connectHttp(vscodeUrl(key));
      return {
        listTools: () => client.listTools(),
        callTool: (params) => client.callTool(params),
        readResource: (params) => client.readResource(params),
        close,
      };
    });
  });

  it("serves every tool the same to a 2026-07-28 client, with no session", async () => {
    await callEveryTool(async (key) => {
      const { client, close } = await connectModernHttp(vscodeUrl(key));
      expect(client.getProtocolEra()).toBe("modern");
      return {
        listTools: () => client.listTools(),
        callTool: (params) => client.callTool(params),
        readResource: (params) => client.readResource(params),
        close,
      };
    });
    // Over HTTP the PDF is a resource of the server, not a file on its disk.
    expect(pdfsSaved()).toEqual([]);
  });

  it("serves every tool to a 2026-07-28 client over stdio, started from the Claude Desktop configuration", async () => {
    await callEveryTool(
      async (key) => {
        const config = claudeConfig(key);
        const client = newModernClient();
        // The PDF lands in the test's folder, not in the user's ~/Downloads.
        const env = { ...config.env, PROTOCOLS_DOWNLOAD_DIR: downloads };
        await client.connect(new ModernStdioClientTransport({ ...config, env, stderr: "ignore" }));
        expect(client.getProtocolEra()).toBe("modern");
        return {
          listTools: () => client.listTools(),
          callTool: (params) => client.callTool(params),
          readResource: (params) => client.readResource(params),
          close: () => client.close(),
        };
      },
      { readPdf: false },
    );
    // Over stdio the server runs on the user's computer: the PDF is also saved in its folder.
    expect(pdfsSaved()).toHaveLength(1);
  });

  it("gives Claude Desktop a stdio configuration that starts each server against the emulators", async () => {
    const claude = configBlock(sandbox.stdout(), "Claude Desktop (stdio)") as {
      mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }>;
    };
    expect(Object.keys(claude.mcpServers)).toEqual(SANDBOX_SERVERS.map((server) => server.key));
    const checks: Record<string, [string, string, string]> = {
      "lab-data": ["labdata_get_current_user", "labdata://users/me", "mira.patel@acme.example"],
      "lab-protocols": ["protocols_get_profile", "", "Ada Okafor (ada-okafor)"],
      "lab-example": ["example_search_users", "", "# User Search Results: 'chen'"],
    };
    for (const [key, config] of Object.entries(claude.mcpServers)) {
      expect(config.env.NODE_EXTRA_CA_CERTS).toMatch(/ca\.pem$/);
      const [tool, , expected] = checks[key] ?? [];
      if (!tool || !expected) throw new Error(`no check for ${key}`);
      // Claude Desktop gives the server only the env of the block (and a few basics like PATH).
      const transport = new StdioClientTransport({ ...config, stderr: "ignore" });
      const client = new Client({ name: "claude-desktop-like", version: "1.0.0" });
      await client.connect(transport);
      try {
        const args = tool === "example_search_users" ? { query: "chen" } : {};
        const result = textOf(await client.callTool({ name: tool, arguments: args }));
        expect(result.isError, result.text).toBe(false);
        expect(result.text).toContain(expected);
      } finally {
        await client.close();
      }
    }
  });

  it("stops everything on Ctrl-C: the servers, the emulators and the CA file", async () => {
    const caFile = /CA certificate +(\S+)/.exec(sandbox.stdout())?.[1] as string;
    expect(existsSync(caFile)).toBe(true);
    sandbox.child.kill("SIGINT");
    expect(await sandbox.exited()).toBe(0);
    expect(sandbox.stdout()).toContain("Stopping lab-sandbox...");
    for (let i = 0; i < PORTS; i++) expect(await isFree(port + i)).toBe(true);
    expect(existsSync(caFile)).toBe(false);
    const emulatorUrl = /lab data platform +(https:\/\/\S+)/.exec(sandbox.stdout())?.[1] as string;
    await expect(fetch(emulatorUrl)).rejects.toThrow();
  });
});

describe("lab-sandbox in a terminal", () => {
  it("stops cleanly when Ctrl-C reaches the whole process group, tool servers included", async () => {
    const port = await freePorts(PORTS);
    const sandbox = runBin("lab-sandbox", ["--port", String(port)], {}, { ownGroup: true });
    try {
      await waitFor(() => sandbox.output().includes("paste it again after a restart"), "the banner");
    } finally {
      // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group.
      process.kill(-(sandbox.child.pid as number), "SIGINT");
    }
    expect(await sandbox.exited()).toBe(0);
    expect(sandbox.output()).not.toContain("stopped by itself");
    for (let i = 0; i < PORTS; i++) expect(await isFree(port + i)).toBe(true);
  });
});

describe("lab-sandbox killed outright", () => {
  it("leaves no tool server behind: after SIGKILL of the sandbox, its ports become free", async () => {
    const port = await freePorts(PORTS);
    // A group of its own only so that whatever is left can be cleaned up below, whatever happens.
    const sandbox = runBin("lab-sandbox", ["--port", String(port)], {}, { ownGroup: true });
    const group = sandbox.child.pid as number;
    try {
      await waitFor(() => sandbox.output().includes("paste it again after a restart"), "the banner");
      const taken = [];
      for (let i = 0; i < PORTS; i++) taken.push(!(await isFree(port + i)));
      expect(taken).toEqual(Array(PORTS).fill(true));

      process.kill(group, "SIGKILL"); // the sandbox alone: nothing gets to stop its children for it
      await sandbox.exited();
      const allFree = async () => {
        for (let i = 0; i < PORTS; i++) if (!(await isFree(port + i))) return false;
        return true;
      };
      for (let attempt = 0; attempt < 100 && !(await allFree()); attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await allFree()).toBe(true);
    } finally {
      try {
        process.kill(-group, "SIGKILL");
      } catch {
        // Nothing left in the group: as it should be.
      }
    }
  });
});

describe("lab-sandbox start-up errors", () => {
  async function blockPort(port: number) {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", resolve));
    return blocker;
  }

  it("names the setting to change when its first port is taken", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const run = runBin("lab-sandbox", ["--port", String(port)]);
      expect(await run.exited()).toBe(2);
      expect(run.output().trim()).toBe(
        `lab-sandbox: port ${port} is in use; choose another with --port <n> or LAB_SANDBOX_PORT`,
      );
    } finally {
      blocker.close();
    }
  });

  it("names the port and its server when a later port is taken, and starts nothing", async () => {
    const port = await freePorts(PORTS);
    const blocker = await blockPort(port + 1);
    try {
      const run = runBin("lab-sandbox", [], { LAB_SANDBOX_PORT: String(port) });
      expect(await run.exited()).toBe(2);
      expect(run.output().trim()).toBe(
        `lab-sandbox: port ${port + 1} (for ${SANDBOX_SERVERS.find((s) => s.portOffset === 1)?.serverName}) is in use; ` +
          `the sandbox takes ports ${port}-${port + PORTS - 1}: choose another first port with --port <n> or LAB_SANDBOX_PORT`,
      );
      expect(await isFree(port)).toBe(true);
    } finally {
      blocker.close();
    }
  });

  it("refuses a bad port with exit code 2, naming the setting", async () => {
    const run = runBin("lab-sandbox", [], { LAB_SANDBOX_PORT: "http" });
    expect(await run.exited()).toBe(2);
    expect(run.output().trim()).toBe(
      `lab-sandbox: LAB_SANDBOX_PORT must be a whole number from 1 to ${65536 - PORTS} (or 0 for free ports), got "http"`,
    );
    const flag = runBin("lab-sandbox", ["--prot", "3100"]);
    expect(await flag.exited()).toBe(2);
    expect(flag.output()).toMatch(/^lab-sandbox: Unknown option '--prot'.*\(see --help\)\n$/);
  });

  it("documents its options and settings in --help", async () => {
    const run = runBin("lab-sandbox", ["--help"]);
    expect(await run.exited()).toBe(0);
    const help = run.stdout();
    expect(help).toMatch(/^Usage: lab-sandbox \[--port <n>\]/);
    for (const text of [
      "--port <n>",
      "LAB_SANDBOX_PORT",
      "PROTOCOLS_DOWNLOAD_DIR",
      "-h, --help",
      "Exit codes",
    ]) {
      expect(help).toContain(text);
    }
    for (const spec of SANDBOX_SERVERS) expect(help).toContain(spec.serverName);
  });
});
