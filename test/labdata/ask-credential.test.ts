// No credential configured: labdata_mcp asks for an API key on a one-time local page (URL-mode
// elicitation), keeps it in memory, and stores it (mode 0600) only when the user ticks "remember".
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { type Connected, connectInMemory, textOf } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";

const emulator = useLabdataEmulator();

const freshCredentialsFile = () =>
  join(mkdtempSync(join(tmpdir(), "labdata-ask-")), "lab-mcp", "labdata.json");

/**
 * A client that can open URLs, and a user who types `key` on the page (ticking remember or not); over
 * HTTP (`isolated`), as one client session among many.
 */
async function connectWithUser(file: string, key: string, remember: boolean, isolated = false) {
  const env = { LABDATA_BASE_URL: emulator.demo.baseUrl, LABDATA_CREDENTIALS_FILE: file };
  const clientSession = isolated ? { caller: "session:ladder", isolated: true } : undefined;
  const connection = await connectInMemory(
    labdataService,
    env,
    { elicitation: { url: {} } },
    clientSession ? { clientSession } : {},
  );
  const asked: string[] = [];
  connection.client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const { url, message } = request.params as { url: string; message: string };
    asked.push(message);
    setTimeout(() => {
      const form = new URLSearchParams({ secret: key, ...(remember ? { remember: "on" } : {}) });
      void fetch(url, { method: "POST", body: form });
    }, 5);
    return { action: "accept" };
  });
  return { connection, asked };
}

const whoAmI = async (connection: Connected) =>
  textOf(await connection.client.callTool({ name: "labdata_get_current_user", arguments: {} }));

describe("asking for an API key", () => {
  it("uses the key typed on the page, asks once, and stores it with mode 0600 when asked to remember", async () => {
    const file = freshCredentialsFile();
    const { user } = emulator.demo;
    const { connection, asked } = await connectWithUser(file, user.apiKey, true);
    const first = await whoAmI(connection);
    expect(first.text).toContain(`- **User**: ${user.name} (${user.id})`);
    expect(first.text).not.toContain(user.apiKey);
    await whoAmI(connection);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/needs an API key/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(file, "..")).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      baseUrl: emulator.demo.baseUrl,
      apiKey: user.apiKey,
    });
    await connection.close();

    // The next start uses the remembered key without asking.
    const again = await connectWithUser(file, "unused", false);
    expect((await whoAmI(again.connection)).text).toContain(user.name);
    expect(again.asked).toHaveLength(0);
    await again.connection.close();
  });

  it("keeps the key in memory only without remember", async () => {
    const file = freshCredentialsFile();
    const { connection } = await connectWithUser(file, emulator.demo.user.apiKey, false);
    expect((await whoAmI(connection)).isError).toBe(false);
    expect(existsSync(file)).toBe(false);
    await connection.close();
  });

  it("neither keeps nor stores a wrong key, and asks again next time", async () => {
    const file = freshCredentialsFile();
    const { connection, asked } = await connectWithUser(file, "not-a-real-key", true);
    expect(await whoAmI(connection)).toEqual({ text: "Error: Invalid API authentication", isError: true });
    expect(existsSync(file)).toBe(false);
    await whoAmI(connection);
    expect(asked).toHaveLength(2);
    await connection.close();
  });

  it("over HTTP, uses the key the session entered before this computer's remembered one (the ladder's order)", async () => {
    const file = freshCredentialsFile();
    const { user, colleague } = emulator.demo;
    const { connection, asked } = await connectWithUser(file, user.apiKey, false, true);
    expect((await whoAmI(connection)).text).toContain(user.name);
    // Meanwhile a key is remembered on this computer (a stdio server's "remember"): the session's own
    // key stays the one its calls use, and nobody is asked again.
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, JSON.stringify({ baseUrl: emulator.demo.baseUrl, apiKey: colleague.apiKey }), {
      mode: 0o600,
    });
    const again = await whoAmI(connection);
    expect(again.text).toContain(user.name);
    expect(again.text).not.toContain(colleague.name);
    expect(asked).toHaveLength(1);
    await connection.close();
  });

  it("tells which settings to make when the client cannot open URLs", async () => {
    const env = { LABDATA_BASE_URL: emulator.demo.baseUrl, LABDATA_CREDENTIALS_FILE: freshCredentialsFile() };
    const connection = await connectInMemory(labdataService, env);
    const result = await whoAmI(connection);
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      "Error: No credentials for the lab data platform. Set LABDATA_API_KEY, or LABDATA_CLIENT_ID and " +
        "LABDATA_CLIENT_SECRET, or LABDATA_ID_TOKEN (or LABDATA_ID_TOKEN_FILE) in the server's environment and restart it.",
    );
    await connection.close();
  });
});
