// The built protocols-mcp bin as clients start it: over stdio and over streamable HTTP, with a client
// token; read-only mode hides the tools that change anything (the PDF download and the sign-in).
import { expect, it } from "vitest";
import { connectHttp, connectStdio, startHttpBin, textOf } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import { clientTokenEnv, loopbackApp, oauthEnv } from "../support/protocols.js";

const emulator = useProtocolsEmulator();

it("serves over stdio, and never writes the token to stderr", async () => {
  const connection = await connectStdio("protocols-mcp", clientTokenEnv(emulator));
  const result = textOf(
    await connection.client.callTool({
      name: "protocols_search",
      arguments: { keyword: "western blot", limit: 2 },
    }),
  );
  expect(result.text).toMatch(/^# Protocol search: 'western blot'\n/);
  await connection.close();
  expect(connection.stderr()).not.toContain(emulator.demo.clientAccessToken);
});

it("serves over streamable HTTP; read-only mode hides the PDF download and the sign-in", async () => {
  const server = await startHttpBin("protocols-mcp", clientTokenEnv(emulator, { MCP_READ_ONLY: "true" }));
  try {
    const connection = await connectHttp(server.url);
    const names = (await connection.client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual([
      "protocols_get_profile",
      "protocols_get_protocol",
      "protocols_list_my_protocols",
      "protocols_list_workspaces",
      "protocols_search",
    ]);
    const result = textOf(await connection.client.callTool({ name: "protocols_get_profile", arguments: {} }));
    expect(result.text).toContain("- **User**: Ada Okafor (ada-okafor)");
    await connection.close();
  } finally {
    expect(await server.stop()).toBe(0);
  }
  expect(server.stderr()).not.toContain(emulator.demo.clientAccessToken);
});

it("lists every tool with its annotations", async () => {
  // Signed in with OAuth and destructive tools allowed: nothing held back.
  const app = await loopbackApp(emulator);
  const connection = await connectStdio(
    "protocols-mcp",
    oauthEnv(emulator, app, undefined, { MCP_ALLOW_DESTRUCTIVE: "true" }),
  );
  const tools = (await connection.client.listTools()).tools;
  const table = Object.fromEntries(
    tools.map((tool) => [
      tool.name,
      [
        tool.annotations?.readOnlyHint,
        tool.annotations?.destructiveHint,
        tool.annotations?.idempotentHint,
        tool.annotations?.openWorldHint,
      ],
    ]),
  );
  expect(table).toEqual({
    protocols_search: [true, false, true, true],
    protocols_get_protocol: [true, false, true, true],
    protocols_list_my_protocols: [true, false, true, true],
    protocols_list_workspaces: [true, false, true, true],
    protocols_download_pdf: [false, false, true, true],
    protocols_get_profile: [true, false, true, true],
    protocols_sign_in: [false, false, false, true],
    protocols_sign_out: [false, false, true, false],
    protocols_create_draft: [false, false, false, true],
    protocols_update_draft: [false, false, true, true],
    protocols_set_steps: [false, true, true, true],
    protocols_insert_step: [false, false, false, true],
    protocols_edit_step: [false, false, true, true],
    protocols_delete_step: [false, true, false, true],
  });
  await connection.close();
});
