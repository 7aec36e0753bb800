// The built labdata-mcp bin, as a client starts it: over stdio and over streamable HTTP.
import { spawnSync } from "node:child_process";
import { expect, it } from "vitest";
import { binPath, connectHttp, connectStdio, startHttpBin, textOf } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";
import { apiKeyEnv } from "../support/labdata.js";

const emulator = useLabdataEmulator();

it("serves over stdio, and never writes the key to stderr", async () => {
  const connection = await connectStdio("labdata-mcp", apiKeyEnv(emulator.demo));
  const result = textOf(
    await connection.client.callTool({ name: "labdata_get_current_user", arguments: {} }),
  );
  expect(result.text).toContain(emulator.demo.user.email);
  await connection.close();
  expect(connection.stderr()).not.toContain(emulator.demo.user.apiKey);
});

it("serves over streamable HTTP, with read-only mode hiding the write tool", async () => {
  const server = await startHttpBin(
    "labdata-mcp",
    apiKeyEnv(emulator.demo, undefined, { MCP_READ_ONLY: "true" }),
  );
  try {
    const connection = await connectHttp(server.url);
    const names = (await connection.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("labdata_list_entities");
    expect(names).not.toContain("labdata_create_dna_sequence");
    // Signing out deletes a stored credential: a change, which read-only mode does not offer.
    expect(names).not.toContain("labdata_sign_out");
    const result = textOf(
      await connection.client.callTool({ name: "labdata_list_entities", arguments: { limit: 2 } }),
    );
    expect(result.text).toMatch(/^# DNA sequences/);
    await connection.close();
  } finally {
    expect(await server.stop()).toBe(0);
  }
  expect(server.stderr()).not.toContain(emulator.demo.user.apiKey);
});

it("runs `forget` as a subcommand: listed by --help, a settings problem exits 2 with one line", () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [binPath("labdata-mcp"), ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
      encoding: "utf8",
    });
  const help = run(["--help"]);
  expect(help.status).toBe(0);
  expect(help.stdout).toContain("labdata-mcp forget --subject <sub> [--issuer <issuer>]");
  const noRedis = run(["forget", "--subject", "abc", "--issuer", "https://id.example"], {
    LABDATA_BASE_URL: emulator.demo.baseUrl,
  });
  expect(noRedis.status).toBe(2);
  expect(noRedis.stderr).toMatch(
    /^labdata-mcp: forget works on the servers' shared state: set REDIS_URL and MCP_STATE_KEY/,
  );
  expect(noRedis.stderr.trim().split("\n")).toHaveLength(1);
});
