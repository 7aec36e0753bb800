// One server process over streamable HTTP, several clients: a credential a client supplies (an API key
// typed on the secret page, a protocols_sign_in) belongs to that client's MCP session alone. Another
// session neither uses it, nor sees it, nor waits on its page; nothing is written to the credentials
// or token file, whatever the page's "remember" said; the remote's own records show who acted.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerProcess, startHttpBin, textOf } from "../support/clients.js";
import { useLabdataEmulator, useProtocolsEmulator } from "../support/emulator.js";
import { loopbackApp, oauthEnv, playBrowser, tempHome } from "../support/protocols.js";

/** A client over streamable HTTP that can open URLs; `open` plays the user on each page it is given. */
async function connectUser(url: string, open: (pageUrl: string) => ElicitResult | Promise<ElicitResult>) {
  const client = new Client(
    { name: "lab-mcp-tests", version: "1.0.0" },
    { capabilities: { elicitation: { url: {} } } },
  );
  const pages: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const pageUrl = (request.params as { url: string }).url;
    pages.push(pageUrl);
    return open(pageUrl);
  });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    textOf(await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 }));
  return {
    client,
    pages,
    call,
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

/** A promise with its resolve function, to hold a user's page open until the test says so. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** The user types `key` on the secret page at `pageUrl`, ticking "remember" if the form lets them or not. */
async function typeKey(pageUrl: string, key: string): Promise<string> {
  const form = await (await fetch(pageUrl)).text();
  await fetch(pageUrl, { method: "POST", body: new URLSearchParams({ secret: key, remember: "on" }) });
  return form;
}

describe("labdata_mcp over HTTP with no credential configured", () => {
  const emulator = useLabdataEmulator();
  let server: HttpServerProcess;
  let credentialsFile: string;
  beforeAll(async () => {
    credentialsFile = join(mkdtempSync(join(tmpdir(), "labdata-http-")), "lab-mcp", "labdata.json");
    server = await startHttpBin("labdata-mcp", {
      LABDATA_BASE_URL: emulator.demo.baseUrl,
      LABDATA_CREDENTIALS_FILE: credentialsFile,
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("gives each client its own key: none uses, sees or waits on another's", async () => {
    const { user, colleague } = emulator.demo;
    const forms: string[] = [];
    const bPage = gate();
    const bMayAnswer = gate();
    const a = await connectUser(server.url, (pageUrl) => {
      setTimeout(() => void typeKey(pageUrl, user.apiKey).then((form) => forms.push(form)), 5);
      return { action: "accept" };
    });
    const b = await connectUser(server.url, (pageUrl) => {
      bPage.open();
      void bMayAnswer.opened.then(() => typeKey(pageUrl, colleague.apiKey).then((form) => forms.push(form)));
      return { action: "accept" };
    });
    // Whatever happens, B's user answers in the end, so that a server that makes A wait cannot hang the test.
    const safety = setTimeout(bMayAnswer.open, 8_000);
    try {
      // B's page is open and unanswered...
      const bFirst = b.call("labdata_get_current_user");
      await bPage.opened;
      // ...and A is asked on a page of its own, answers, and acts as its own user at once.
      const aFirst = await a.call("labdata_get_current_user");
      expect(aFirst.isError).toBe(false);
      expect(aFirst.text).toContain(`- **User**: ${user.name} (${user.id})`);
      expect(a.pages).toHaveLength(1);

      bMayAnswer.open();
      const bResult = await bFirst;
      expect(bResult.text).toContain(`- **User**: ${colleague.name} (${colleague.id})`);

      // Each goes on as itself without being asked again.
      expect((await a.call("labdata_get_current_user")).text).toContain(user.name);
      const audit = emulator.admin.auditLog(emulator.demo.tenant);
      expect(audit.at(-1)?.actorUserId).toBe(user.id);
      expect((await b.call("labdata_get_current_user")).text).toContain(colleague.name);
      expect(emulator.admin.auditLog(emulator.demo.tenant).at(-1)?.actorUserId).toBe(colleague.id);
      expect([a.pages.length, b.pages.length]).toEqual([1, 1]);

      // The pages offered no "remember", said why, and nothing was stored though "remember" was posted.
      expect(forms).toHaveLength(2);
      for (const form of forms) {
        expect(form).not.toContain('name="remember"');
        expect(form).toContain("kept in its memory for your session only");
      }
      expect(existsSync(credentialsFile)).toBe(false);

      // A third client sees neither key: it is asked for its own, and without one it has none.
      const c = await connectUser(server.url, () => ({ action: "decline" }));
      try {
        const cResult = await c.call("labdata_get_current_user");
        expect(cResult.isError).toBe(true);
        expect(cResult.text).toMatch(/^Error: No credentials for the lab data platform\./);
        expect(c.pages).toHaveLength(1);
      } finally {
        await c.close();
      }
    } finally {
      clearTimeout(safety);
      await a.close();
      await b.close();
    }
  }, 60_000);
});

describe("protocols_mcp over HTTP with an OAuth application and nobody signed in", () => {
  const emulator = useProtocolsEmulator();
  let server: HttpServerProcess;
  let tokenFile: string;
  beforeAll(async () => {
    const home = tempHome();
    tokenFile = home.tokenFile;
    server = await startHttpBin("protocols-mcp", oauthEnv(emulator, await loopbackApp(emulator), home));
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A client whose user signs in as `user` on the repository's page, once `mayAnswer` opens. */
  const signingInAs = (user: string, mayAnswer: Promise<void> = Promise.resolve()) =>
    connectUser(server.url, (pageUrl) => {
      void mayAnswer.then(() => playBrowser(emulator, pageUrl, { user }));
      return { action: "accept" };
    });

  it("keeps each client's sign-in to its own session, in memory, and never waits on another's", async () => {
    const bMayAnswer = gate();
    const a = await signingInAs("mei-chen");
    const b = await signingInAs("tomas-garcia", bMayAnswer.opened);
    const safety = setTimeout(bMayAnswer.open, 8_000);
    try {
      const signedIn = await a.call("protocols_sign_in");
      expect(signedIn).toEqual({
        isError: false,
        text:
          "Signed in to the protocol repository as Mei Chen (mei-chen). This server is shared over HTTP, so the " +
          "sign-in is kept in its memory for this session only (never stored, used for no other client) and " +
          "renews itself; every protocols tool of this session now works with it.",
      });
      expect(existsSync(tokenFile)).toBe(false);

      // B does not see A's sign-in.
      const bBefore = await b.call("protocols_get_profile");
      expect(bBefore.isError).toBe(true);
      expect(bBefore.text).toMatch(/^Error: Not signed in to the protocol repository\./);

      // B's sign-in page is open, unanswered: A's calls go on as A meanwhile.
      const bSignIn = b.call("protocols_sign_in");
      for (let i = 0; i < 100 && b.pages.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(b.pages).toHaveLength(1);
      const aProfile = JSON.parse((await a.call("protocols_get_profile", { response_format: "json" })).text);
      expect(aProfile).toMatchObject({ username: "mei-chen", sign_in: "oauth" });
      // A second sign-in cannot share the redirect port: it is refused at once, not queued behind B's page.
      expect(await a.call("protocols_sign_in")).toEqual({
        isError: true,
        text:
          "Error: A sign-in is already waiting for the browser (one at a time, on the redirect URI's port). " +
          "Finish or close it, or try again in a few minutes.",
      });

      bMayAnswer.open();
      expect((await bSignIn).text).toContain("(tomas-garcia)");
      const bProfile = JSON.parse((await b.call("protocols_get_profile", { response_format: "json" })).text);
      expect(bProfile).toMatchObject({ username: "tomas-garcia", sign_in: "oauth" });
      const aAgain = JSON.parse((await a.call("protocols_get_profile", { response_format: "json" })).text);
      expect(aAgain.username).toBe("mei-chen");
      expect(existsSync(tokenFile)).toBe(false);

      // A new session is signed in as nobody.
      const c = await connectUser(server.url, () => ({ action: "decline" }));
      try {
        expect((await c.call("protocols_get_profile")).text).toMatch(/^Error: Not signed in/);
      } finally {
        await c.close();
      }
    } finally {
      clearTimeout(safety);
      await a.close();
      await b.close();
    }
  }, 60_000);
});
