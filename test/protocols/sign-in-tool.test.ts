// protocols_sign_in: the OAuth code flow through URL-mode elicitation. The client opens the authorize
// URL (the test plays the browser and approves), the redirect reaches the server's listener, and the
// tokens are stored with mode 0600 outside the project tree.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { noAuth } from "../../packages/lab-mcp/src/core/http/auth.js";
import { RemoteClient } from "../../packages/lab-mcp/src/core/http/remote-client.js";
import { TokenEndpoint } from "../../packages/lab-mcp/src/services/protocols/auth/token-endpoint.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { callText, connectInMemory, ROOT, textOf } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import {
  connectWithBrowser,
  holdPortInAnotherProcess,
  localhostApp,
  loopbackApp,
  oauthEnv,
  playBrowser,
  tempHome,
  tokensIn,
} from "../support/protocols.js";

const emulator = useProtocolsEmulator();

describe("protocols_sign_in", () => {
  it("signs in through the page the client opens, stores the tokens (0600) and works as that user", async () => {
    const app = await loopbackApp(emulator);
    const home = tempHome();
    const connection = await connectWithBrowser(emulator, oauthEnv(emulator, app, home), "mei-chen");

    const before = await callText(connection, "protocols_get_profile");
    expect(before).toEqual({
      isError: true,
      text:
        "Error: Not signed in to the protocol repository. Call protocols_sign_in (your client opens the sign-in " +
        "page), or run 'protocols-mcp login' in a terminal, then try again.",
    });

    const result = await callText(connection, "protocols_sign_in");
    expect(result).toEqual({
      isError: false,
      text:
        `Signed in to the protocol repository as Mei Chen (mei-chen). The tokens are stored in ${home.tokenFile} ` +
        "(readable only by you) and renew themselves; every protocols tool now works with this sign-in.",
    });

    // The client was asked to open the repository's authorize URL, with a fresh random state.
    const [elicited] = connection.heard.elicitations;
    const authorize = new URL(elicited?.url ?? "");
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${emulator.url}/api/v3/oauth/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toEqual({
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      // The repository's documented name for it (fact sheet 2.1), sent as well.
      redirect_url: app.redirectUri,
      response_type: "code",
      state: expect.stringMatching(/^[\w-]{43}$/),
      // PKCE: the SHA-256 of a fresh verifier that only the code exchange reveals (the emulator checks it).
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: "S256",
    });
    expect(authorize.searchParams.get("code_challenge")).not.toBe(authorize.searchParams.get("state"));
    expect(elicited?.message).toBe("Sign in to the protocol repository and approve access for lab-mcp.");
    expect(connection.heard.completed).toEqual([elicited?.elicitationId]);
    expect(connection.heard.visits[0]?.listenerStatus).toBe(200);
    expect(connection.heard.visits[0]?.listenerPage).toContain(
      "You are signed in to the protocol repository",
    );

    expect(statSync(home.tokenFile).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(home.tokenFile)).mode & 0o777).toBe(0o700);
    expect(home.tokenFile.startsWith(ROOT)).toBe(false);
    const stored = tokensIn(home.tokenFile);
    expect(Object.keys(stored).sort()).toEqual([
      "access_token",
      "base_url",
      "client_id",
      "expires_at",
      "refresh_token",
    ]);
    expect(stored).toMatchObject({ base_url: emulator.url, client_id: app.clientId });
    expect(stored.expires_at).toBeGreaterThan(Date.now() / 1000 + 364 * 24 * 3600);

    const profile = await callText(connection, "protocols_get_profile");
    expect(profile.text).toContain("- **User**: Mei Chen (mei-chen)");
    expect(profile.text).toContain("- **Sign-in**: OAuth sign-in; the access token renews itself");
    for (const secret of [stored.access_token, stored.refresh_token, app.clientSecret]) {
      expect(result.text).not.toContain(secret);
      expect(profile.text).not.toContain(secret);
      expect(connection.heard.logs.join("\n")).not.toContain(secret);
    }
    await connection.close();

    // A new server process finds the sign-in in the token file.
    const later = await connectInMemory(protocolsService, oauthEnv(emulator, app, home));
    const again = textOf(await later.client.callTool({ name: "protocols_get_profile", arguments: {} }));
    expect(again.text).toContain("Mei Chen (mei-chen)");
    await later.close();
  });

  it("answers as data who signed in and where the sign-in is kept, and no token", async () => {
    const app = await loopbackApp(emulator);
    const home = tempHome();
    const connection = await connectWithBrowser(emulator, oauthEnv(emulator, app, home), "mei-chen");
    const result = await connection.client.callTool({ name: "protocols_sign_in", arguments: {} });
    expect(result.structuredContent).toEqual({
      username: "mei-chen",
      name: "Mei Chen",
      kept_in: "token_file",
      token_file: home.tokenFile,
      sign_in_url: null,
    });
    const stored = tokensIn(home.tokenFile);
    for (const secret of [stored.access_token, stored.refresh_token, app.clientSecret])
      expect(JSON.stringify(result.structuredContent)).not.toContain(secret);
    await connection.close();
  });

  it("protocols_sign_out deletes the token file of a server on this computer, and says so", async () => {
    const app = await loopbackApp(emulator);
    const home = tempHome();
    const connection = await connectWithBrowser(emulator, oauthEnv(emulator, app, home), "mei-chen");
    await connection.client.callTool({ name: "protocols_sign_in", arguments: {} });
    expect(existsSync(home.tokenFile)).toBe(true);
    const out = await connection.client.callTool({ name: "protocols_sign_out", arguments: {} });
    expect(out.structuredContent).toEqual({ removed: true, from: "token_file" });
    expect(textOf(out).text).toBe(
      "Signed out of the protocol repository: removed the sign-in in the token file. Call protocols_sign_in to " +
        "sign in again.",
    );
    expect(existsSync(home.tokenFile)).toBe(false);
    const profile = textOf(
      await connection.client.callTool({ name: "protocols_get_profile", arguments: {} }),
    );
    expect(profile.text).toContain("Not signed in");
    const again = await connection.client.callTool({ name: "protocols_sign_out", arguments: {} });
    expect(again.structuredContent).toEqual({ removed: false, from: "token_file" });
    await connection.close();
  });

  it("refuses a redirect with a wrong state, says so on the page, and still takes the right one", async () => {
    const app = await loopbackApp(emulator);
    const home = tempHome();
    const connection = await connectInMemory(protocolsService, oauthEnv(emulator, app, home), {
      elicitation: { url: {} },
    });
    const { ElicitRequestSchema, LoggingMessageNotificationSchema } = await import(
      "@modelcontextprotocol/sdk/types.js"
    );
    const logs: string[] = [];
    connection.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(String(n.params.data));
    });
    const forged: Array<{ status?: number; page?: string }> = [];
    connection.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const url = (request.params as { url: string }).url;
      setTimeout(async () => {
        // A response that did not come from this sign-in (a forged link, an old tab) arrives first.
        const wrong = await playBrowser(emulator, url, { user: "tomas-garcia", mangleState: true });
        forged.push({ status: wrong.listenerStatus, page: wrong.listenerPage });
        await playBrowser(emulator, url, { user: "mei-chen" });
      }, 5);
      return { action: "accept" };
    });
    const result = textOf(await connection.client.callTool({ name: "protocols_sign_in", arguments: {} }));
    expect(result.text).toMatch(/^Signed in to the protocol repository as Mei Chen \(mei-chen\)\./);
    expect(forged[0]?.status).toBe(400);
    expect(forged[0]?.page).toContain("does not belong to the sign-in in progress (wrong state)");
    expect(logs.some((line) => line.includes("state does not match this sign-in"))).toBe(true);
    await connection.close();
  });

  it("reports a denial in the browser", async () => {
    const app = await loopbackApp(emulator);
    const connection = await connectInMemory(protocolsService, oauthEnv(emulator, app), {
      elicitation: { url: {} },
    });
    const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    connection.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const url = (request.params as { url: string }).url;
      setTimeout(() => void playBrowser(emulator, url, { user: "mei-chen", decision: "deny" }), 5);
      return { action: "accept" };
    });
    const result = textOf(await connection.client.callTool({ name: "protocols_sign_in", arguments: {} }));
    expect(result).toEqual({
      isError: true,
      text:
        "Error: The sign-in was not completed in the browser (access_denied: the sign-in was declined). " +
        "Call protocols_sign_in to try again.",
    });
    await connection.close();
  });

  it("reports a declined page", async () => {
    const app = await loopbackApp(emulator);
    const connection = await connectInMemory(protocolsService, oauthEnv(emulator, app), {
      elicitation: { url: {} },
    });
    const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    connection.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
    const result = textOf(await connection.client.callTool({ name: "protocols_sign_in", arguments: {} }));
    expect(result).toEqual({ isError: true, text: "Error: Sign-in cancelled: the page was not opened." });
    // The listener is gone: the redirect port is free for the next sign-in.
    const again = textOf(await connection.client.callTool({ name: "protocols_sign_in", arguments: {} }));
    expect(again.text).toBe("Error: Sign-in cancelled: the page was not opened.");
    await connection.close();
  });

  it("refuses to start when another program holds a localhost redirect URI's port on [::1]", async () => {
    const app = await localhostApp(emulator);
    const blocker = await holdPortInAnotherProcess("::1", Number(new URL(app.redirectUri).port));
    try {
      const connection = await connectWithBrowser(emulator, oauthEnv(emulator, app), "mei-chen");
      expect(await callText(connection, "protocols_sign_in")).toEqual({
        isError: true,
        text:
          `Error: Cannot receive the sign-in at ${app.redirectUri} (PROTOCOLS_REDIRECT_URI): the port is in use on ` +
          "[::1], where a browser may take localhost to (is another sign-in running?). Call protocols_sign_in to try again.",
      });
      expect(connection.heard.elicitations).toEqual([]); // no sign-in page was offered
      await connection.close();
    } finally {
      blocker.kill();
    }
  });

  it("tells a client without URL elicitation to run protocols-mcp login or set a client token", async () => {
    const app = await loopbackApp(emulator);
    const home = tempHome();
    const connection = await connectInMemory(protocolsService, oauthEnv(emulator, app, home));
    const result = textOf(await connection.client.callTool({ name: "protocols_sign_in", arguments: {} }));
    expect(result).toEqual({
      isError: true,
      text:
        "Error: This client cannot open the sign-in page (it lacks URL elicitation). Run 'protocols-mcp login' in a " +
        "terminal with the same settings, or set PROTOCOLS_ACCESS_TOKEN (a client token) instead, then try again.",
    });
    expect(existsSync(home.tokenFile)).toBe(false);
    await connection.close();
  });

  it("says OAuth is not configured when the server uses a client token", async () => {
    const connection = await connectInMemory(
      protocolsService,
      { PROTOCOLS_BASE_URL: emulator.url, PROTOCOLS_ACCESS_TOKEN: emulator.demo.clientAccessToken },
      { elicitation: { url: {} } },
    );
    const result = textOf(await connection.client.callTool({ name: "protocols_sign_in", arguments: {} }));
    expect(result.text).toBe(
      "Error: OAuth sign-in is not configured: set PROTOCOLS_CLIENT_ID, PROTOCOLS_CLIENT_SECRET and " +
        "PROTOCOLS_REDIRECT_URI (your application on the repository) and restart the server. The server already " +
        "uses the client token in PROTOCOLS_ACCESS_TOKEN.",
    );
    await connection.close();
  });
});

describe("redirect_uri mismatch", () => {
  it("is refused by the repository at the token endpoint: the code's redirect_uri must be the same", async () => {
    const app = await loopbackApp(emulator);
    // A code issued for the registered redirect URI...
    const { createServer } = await import("node:http");
    const listener = createServer((_req, res) => res.end("ok"));
    await new Promise<void>((resolve) =>
      listener.listen(Number(new URL(app.redirectUri).port), "127.0.0.1", resolve),
    );
    const verifier = randomBytes(32).toString("base64url");
    const authorize = new URL("/api/v3/oauth/authorize", emulator.url);
    authorize.search = new URLSearchParams({
      client_id: app.clientId,
      redirect_uri: app.redirectUri,
      response_type: "code",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"),
      code_challenge_method: "S256",
    }).toString();
    const visit = await playBrowser(emulator, authorize.toString(), { user: "mei-chen" });
    listener.close();
    const code = visit.redirect?.searchParams.get("code") ?? "";
    expect(code).not.toBe("");
    // ...exchanged by our token endpoint client configured with another one.
    const endpoint = new TokenEndpoint(new RemoteClient({ baseUrl: emulator.url, auth: noAuth }), {
      ...app,
      redirectUri: `${app.redirectUri}/other`,
    });
    await expect(endpoint.exchangeCode(code, verifier)).rejects.toThrow(
      "The repository refused the grant (invalid_grant: the sign-in code or refresh token is invalid, expired, already used or issued to another application).",
    );
  });
});
