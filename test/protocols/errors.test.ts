// Every failure an agent can meet, as the exact text of the conventions (or, where the agent or user
// can fix it, a text saying how), and every settings problem as a start-up error.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Fault } from "../../packages/emulators/src/protocols/index.js";
import { ConfigError } from "../../packages/lab-mcp/src/core/start/config.js";
import { prepare } from "../../packages/lab-mcp/src/core/start/run.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { type Connected, connectInMemory, textOf } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import { clientTokenEnv, loopbackApp, oauthEnv, tempHome } from "../support/protocols.js";

const emulator = useProtocolsEmulator();
let conn: Connected;
beforeAll(async () => {
  conn = await connectInMemory(protocolsService, clientTokenEnv(emulator));
});
afterAll(async () => {
  await conn.close();
});

const search = async (connection: Connected = conn) =>
  textOf(
    await connection.client.callTool({ name: "protocols_search", arguments: { keyword: "western blot" } }),
  );

async function withFault(fault: Fault, path = "/api/v3/protocols", connection: Connected = conn) {
  // A dropped connection twice: a request that got no answer is sent once more.
  emulator.faults.inject(fault, { path, times: fault.kind === "drop" ? 2 : 1 });
  try {
    return await search(connection);
  } finally {
    emulator.faults.clear();
  }
}

const error = (text: string) => ({ isError: true, text });

describe("remote failures", () => {
  it("401: a wrong client token", async () => {
    const wrong = await connectInMemory(
      protocolsService,
      clientTokenEnv(emulator, { PROTOCOLS_ACCESS_TOKEN: "f".repeat(40) }),
    );
    expect(await search(wrong)).toEqual(error("Error: Invalid API authentication"));
    await wrong.close();
  });

  it("404: a protocol that does not exist or may not be seen", async () => {
    const result = textOf(
      await conn.client.callTool({ name: "protocols_get_protocol", arguments: { protocol: "99999999" } }),
    );
    expect(result).toEqual(error("Error: Resource not found. Please check the ID is correct."));
  });

  it.each([
    [403, "Error: Permission denied. You don't have access to this resource."],
    [500, "Error: API request failed with status 500"],
    [400, "Error: API request failed with status 400"],
  ])("%i, with the repository's error body", async (status, text) => {
    const body = JSON.stringify({
      status_code: status === 400 ? 1 : 1000 + status,
      error_message: "injected",
    });
    expect(await withFault({ kind: "status", status, body })).toEqual(error(text));
  });

  it("429 that outlasts what a call waits for", async () => {
    const limited = await connectInMemory(protocolsService, clientTokenEnv(emulator));
    const body = JSON.stringify({ status_code: 1429, error_message: "Too many requests" });
    const fault: Fault = { kind: "status", status: 429, body, headers: { "retry-after": "120" } };
    expect(await withFault(fault, "/api/v3/protocols", limited)).toEqual(
      error("Error: Rate limit exceeded. Please wait before making more requests."),
    );
    await limited.close();
  });

  it("an error code in a 200 answer counts as that error", async () => {
    const body = JSON.stringify({ status_code: 1219, error_message: "Token is expired." });
    expect(await withFault({ kind: "status", status: 200, body })).toEqual(
      error("Error: Invalid API authentication"),
    );
  });

  it("timeout", async () => {
    const slow = await connectInMemory(
      protocolsService,
      clientTokenEnv(emulator, { MCP_REQUEST_TIMEOUT: "1" }),
    );
    expect(await withFault({ kind: "delay", ms: 1500 }, "/api/v3/protocols", slow)).toEqual(
      error("Error: Request timed out. Please try again."),
    );
    await slow.close();
  });

  it.each([
    [{ kind: "malformed" } as Fault, "Error: Unexpected error occurred: InvalidResponseError"],
    [{ kind: "drop" } as Fault, "Error: Unexpected error occurred: ConnectionError"],
  ])("anything else: %j", async (fault, text) => {
    expect(await withFault(fault)).toEqual(error(text));
  });

  it("a PDF view that answers with something else than a PDF", async () => {
    emulator.faults.inject(
      {
        kind: "status",
        status: 200,
        body: "<html>maintenance</html>",
        headers: { "content-type": "text/html" },
      },
      { path: "/view/" },
    );
    const result = textOf(
      await conn.client.callTool({
        name: "protocols_download_pdf",
        arguments: { protocol: emulator.demo.sampleProtocol.uri },
      }),
    );
    expect(result).toEqual(error("Error: Unexpected error occurred: InvalidResponseError"));
  });
});

describe("what the user can fix", () => {
  it("nothing configured", async () => {
    const bare = await connectInMemory(protocolsService, { PROTOCOLS_BASE_URL: emulator.url });
    expect(await search(bare)).toEqual(
      error(
        "Error: No access to the protocol repository is configured. Set PROTOCOLS_ACCESS_TOKEN (a client token), or " +
          "PROTOCOLS_CLIENT_ID, PROTOCOLS_CLIENT_SECRET and PROTOCOLS_REDIRECT_URI (your OAuth application) and sign " +
          "in, in the server's environment, and restart it.",
      ),
    );
    await bare.close();
  });

  it.each([
    ["{ not json", "the token file FILE cannot be read (not JSON)"],
    ['{"access_token": 1}', "the token file FILE is not in the expected form"],
    [
      JSON.stringify({
        access_token: "a".repeat(40),
        refresh_token: "b".repeat(40),
        expires_at: 4102444800,
        base_url: "https://elsewhere.example",
        client_id: "pr_live_id_other",
      }),
      "the stored sign-in belongs to another repository address or application",
    ],
  ])("a token file that cannot be used: %s", async (content, why) => {
    const app = await loopbackApp(emulator);
    const home = tempHome();
    mkdirSync(dirname(home.tokenFile), { recursive: true });
    writeFileSync(home.tokenFile, content);
    const connection = await connectInMemory(protocolsService, oauthEnv(emulator, app, home));
    expect(await search(connection)).toEqual(
      error(
        `Error: Not signed in to the protocol repository (${why.replace("FILE", home.tokenFile)}). Call ` +
          "protocols_sign_in (your client opens the sign-in page), or run 'protocols-mcp login' in a terminal, then try again.",
      ),
    );
    await connection.close();
  });
});

describe("settings", () => {
  const base = () => ({ PROTOCOLS_BASE_URL: emulator.url });
  const oauth = {
    PROTOCOLS_CLIENT_ID: "c",
    PROTOCOLS_CLIENT_SECRET: "s",
    PROTOCOLS_REDIRECT_URI: "http://127.0.0.1:8976/cb",
  };
  it.each<[Record<string, string>, string]>([
    [
      { PROTOCOLS_CLIENT_ID: "c" },
      "PROTOCOLS_CLIENT_ID, PROTOCOLS_CLIENT_SECRET, PROTOCOLS_REDIRECT_URI go together; PROTOCOLS_CLIENT_SECRET and PROTOCOLS_REDIRECT_URI are missing",
    ],
    [
      { PROTOCOLS_CLIENT_ID: "c", PROTOCOLS_CLIENT_SECRET: "s" },
      "PROTOCOLS_CLIENT_ID, PROTOCOLS_CLIENT_SECRET, PROTOCOLS_REDIRECT_URI go together; PROTOCOLS_REDIRECT_URI is missing",
    ],
    [
      { ...oauth, PROTOCOLS_ACCESS_TOKEN: "t" },
      "Two sign-in ways are configured (PROTOCOLS_ACCESS_TOKEN and the OAuth application PROTOCOLS_CLIENT_ID); keep one",
    ],
    [
      { PROTOCOLS_ACCESS_TOKEN: "t", PROTOCOLS_TOKEN_FILE: "/tmp/t.json" },
      "PROTOCOLS_TOKEN_FILE holds OAuth sign-ins and is not used with PROTOCOLS_ACCESS_TOKEN; unset one",
    ],
    ...["https://127.0.0.1:8976/cb", "http://example.com:8976/cb", "http://127.0.0.1/cb"].map(
      (uri): [Record<string, string>, string] => [
        { ...oauth, PROTOCOLS_REDIRECT_URI: uri },
        "PROTOCOLS_REDIRECT_URI must be http://127.0.0.1:<port>/<path> or http://localhost:<port>/<path> (this computer, with a port), as registered with your application",
      ],
    ),
    [
      { ...oauth, PROTOCOLS_REDIRECT_URI: "http://127.0.0.1:8976/cb#x" },
      "PROTOCOLS_REDIRECT_URI must not have a #fragment",
    ],
    [
      { PROTOCOLS_BASE_URL: "http://127.0.0.1:8443" },
      "PROTOCOLS_BASE_URL must be an https:// URL (plain http:// is refused)",
    ],
    [
      { PROTOCOLS_ACESS_TOKEN: "t" },
      "Unknown setting PROTOCOLS_ACESS_TOKEN; did you mean PROTOCOLS_ACCESS_TOKEN?",
    ],
  ])("refuses %j at start-up", (env, message) => {
    expect(() => prepare(protocolsService, [], { ...base(), ...env })).toThrow(new ConfigError(message));
  });

  it("takes an OAuth application on localhost, and every setting as a flag", () => {
    const prepared = prepare(
      protocolsService,
      [
        "--base-url",
        emulator.url,
        "--client-id",
        "c",
        "--client-secret",
        "s",
        "--redirect-uri",
        "http://localhost:9000/cb",
      ],
      {},
    );
    expect(prepared.help).toBe(false);
  });
});
