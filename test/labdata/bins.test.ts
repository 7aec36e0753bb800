// The built labdata-mcp bin, as a client starts it: over stdio and over streamable HTTP.
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectHttp, connectStdio, startHttpBin, textOf } from "../support/clients.js";
import { apiKeyEnv, startTestLabdata } from "./support.js";

let emulator: Awaited<ReturnType<typeof startTestLabdata>>;
beforeAll(async () => {
  emulator = await startTestLabdata();
});
afterAll(async () => {
  await emulator.close();
});

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
    expect(names).toContain("labdata_list_dna_sequences");
    expect(names).not.toContain("labdata_create_dna_sequence");
    const result = textOf(
      await connection.client.callTool({ name: "labdata_list_dna_sequences", arguments: { limit: 2 } }),
    );
    expect(result.text).toMatch(/^# DNA sequences/);
    await connection.close();
  } finally {
    expect(await server.stop()).toBe(0);
  }
  expect(server.stderr()).not.toContain(emulator.demo.user.apiKey);
});
