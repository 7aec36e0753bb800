// protocols_sign_in for a 2026-07-28 client over streamable HTTP: the sign-in page reaches the client as
// an "input required" answer (a URL-mode request), the client retries once the browser is done, and the
// call completes. What the sign-in lasts for depends on who the server can tell the client is: with
// MCP_HTTP_TOKEN, its holder; without it, nobody beyond this one request, which the answer says.
import { afterAll, describe, expect, it } from "vitest";
import {
  connectModernHttp,
  type HttpServerProcess,
  type ModernConnected,
  startHttpBin,
  textOf,
} from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import { loopbackApp, oauthEnv, playBrowser, tempHome } from "../support/protocols.js";

const TOKEN = "0123456789abcdef0123456789abcdef-signin";

const emulator = useProtocolsEmulator();

/** A 2026-07-28 client that opens every sign-in page it is given in a (played) browser, as mei-chen. */
async function userClient(url: string, token?: string): Promise<ModernConnected & { pages: string[] }> {
  const connection = await connectModernHttp(url, { token, capabilities: { elicitation: { url: {} } } });
  const pages: string[] = [];
  connection.client.setRequestHandler("elicitation/create", async (request) => {
    const params = request.params as { mode?: string; url: string };
    expect(params.mode).toBe("url");
    pages.push(params.url);
    await playBrowser(emulator, params.url, { user: "mei-chen" });
    return { action: "accept" };
  });
  return { ...connection, pages };
}

const call = async (connection: ModernConnected, name: string) =>
  textOf(await connection.client.callTool({ name, arguments: {} }));

describe("protocols_sign_in, 2026-07-28 over HTTP", () => {
  let servers: HttpServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    servers = [];
  });

  it("signs in through the page; without MCP_HTTP_TOKEN the sign-in serves that call only, and says so", async () => {
    const app = await loopbackApp(emulator);
    const server = await startHttpBin("protocols-mcp", oauthEnv(emulator, app, tempHome()));
    servers.push(server);
    const connection = await userClient(server.url);
    const signedIn = await call(connection, "protocols_sign_in");
    expect(signedIn.isError, signedIn.text).toBe(false);
    expect(signedIn.text).toMatch(/^Signed in to the protocol repository as .*Mei.*, for this call only: /);
    expect(signedIn.text).toContain("Set MCP_HTTP_TOKEN");
    expect(connection.pages).toHaveLength(1);
    // The next request is nobody in particular: not signed in.
    expect((await call(connection, "protocols_get_profile")).text).toMatch(/sign/i);
    expect((await call(connection, "protocols_get_profile")).text).not.toContain("Mei");
    await connection.close();
  });

  it("with MCP_HTTP_TOKEN, the sign-in lasts for the token's holder across requests", async () => {
    const app = await loopbackApp(emulator);
    const server = await startHttpBin("protocols-mcp", {
      ...oauthEnv(emulator, app, tempHome()),
      MCP_HTTP_TOKEN: TOKEN,
    });
    servers.push(server);
    const connection = await userClient(server.url, TOKEN);
    const signedIn = await call(connection, "protocols_sign_in");
    expect(signedIn.isError, signedIn.text).toBe(false);
    expect(signedIn.text).toContain("kept in its memory");
    const profile = await call(connection, "protocols_get_profile");
    expect(profile.isError, profile.text).toBe(false);
    expect(profile.text).toContain("Mei");
    // protocols_sign_out forgets that holder's sign-in from the server's memory.
    const out = await connection.client.callTool({ name: "protocols_sign_out", arguments: {} });
    expect(out.structuredContent).toEqual({ removed: true, from: "session_memory" });
    expect((await call(connection, "protocols_get_profile")).text).toContain("Not signed in");
    await connection.close();
  });
});
