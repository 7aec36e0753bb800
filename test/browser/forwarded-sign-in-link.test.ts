// Two people, two browsers, one team protocols server: Tomás's assistant gives him a repository sign-in
// link and he forwards it to Mei. Her browser signs in at the identity provider as her and the link
// refuses her, saying whose it is, before the repository is reached. He then forwards the repository's
// own address (from his browser's address bar): she approves it there as herself, and the server's
// callback refuses her browser, which lacks the cookie his link set, and ends the sign-in: her code is
// discarded, so her callback address opened in his browser signs no one in. A new link signs him in.

import { StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import { CHROMIUM, launchChromium, NO_CHROMIUM, openSignedInAs, screenshot } from "../support/browser.js";
import { type HttpServerProcess, newModernClient, startHttpBin, textOf } from "../support/clients.js";
import { testCa, useProtocolsEmulator } from "../support/emulator.js";
import { HeadlessOAuthProvider, registerServerClient, signInHeadless } from "../support/oauth-client.js";
import { freePort } from "../support/ports.js";
import { passwordOf, tempHome } from "../support/protocols.js";

if (!CHROMIUM) console.warn(NO_CHROMIUM);

const TOM = "tom.becker@acme.example";
const MIRA = "mira.patel@acme.example";

describe.skipIf(!CHROMIUM)(
  "a team server's repository sign-in link forwarded to someone else, in Chromium",
  () => {
    const emulator = useProtocolsEmulator();
    let idp: IdentityProvider;
    let server: HttpServerProcess;
    let browser: Browser;
    let endpoint: string;

    beforeAll(async () => {
      idp = await startIdentityProvider({ ca: testCa() });
      emulator.admin.updateSettings({ browserSessionUser: null });
      const port = await freePort();
      const origin = `http://127.0.0.1:${port}`;
      endpoint = `${origin}/mcp`;
      const app = emulator.admin.createApplication({
        owner: "ada-okafor",
        redirectUri: `${origin}/oauth/protocols/callback`,
        name: "lab-mcp team server",
      });
      const home = tempHome();
      server = await startHttpBin("protocols-mcp", {
        HOME: home.dir,
        XDG_CONFIG_HOME: home.xdgConfig,
        PROTOCOLS_BASE_URL: emulator.url,
        PROTOCOLS_CLIENT_ID: app.clientId,
        PROTOCOLS_CLIENT_SECRET: app.clientSecret,
        PROTOCOLS_REDIRECT_URI: app.redirectUri,
        PROTOCOLS_DOWNLOAD_DIR: home.downloads,
        MCP_AUTH_ISSUER: idp.issuer,
        MCP_AUTH_AUDIENCE: endpoint,
        MCP_PORT: String(port),
        ...(await registerServerClient(idp, origin)),
      });
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await server?.stop();
      await idp?.close();
    });

    const openAs = (name: string, url: string) => openSignedInAs(browser, name, url);

    /** Signs in at the repository's own form as `username`, then waits for its consent page. */
    async function atRepository(page: Page, username: string): Promise<void> {
      await page.getByLabel("Username").fill(username);
      await page.getByLabel("Password").fill(passwordOf(emulator, username));
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "lab-mcp team server wants to access your account" }).waitFor();
    }

    it("refuses Mei's browser on Tomás's link and on the repository address behind it, which ends that sign-in; a new link signs him in", async () => {
      idp.admin.autoApprove(TOM);
      const provider = new HeadlessOAuthProvider({ redirectUrl: "http://127.0.0.1:9/callback" });
      await signInHeadless(provider, endpoint);
      // From now on people pick themselves on the identity provider's page.
      idp.admin.autoApprove(null);
      const client = newModernClient({});
      await client.connect(
        new ModernStreamableHTTPClientTransport(new URL(endpoint), { authProvider: provider }),
      );
      try {
        const asked = await client.callTool({ name: "protocols_sign_in", arguments: {} });
        const link = (asked.structuredContent as { sign_in_url: string | null }).sign_in_url ?? "";
        expect(link.startsWith(`${new URL(endpoint).origin}/oauth/protocols/connect/`)).toBe(true);

        const hers = await openAs("Mira Patel", link);
        await hers.getByRole("heading", { name: "This sign-in link is not yours" }).waitFor();
        const refusal = (await hers.locator("body").textContent()) ?? "";
        expect(refusal).toContain(`the assistant of ${TOM}`);
        expect(refusal).toContain(`(${MIRA})`);
        expect(refusal).toContain("Nothing was signed in.");
        expect(hers.url().startsWith(emulator.url)).toBe(false);
        await screenshot(hers, "sign-in-link-not-yours");

        const his = await openAs("Tom Becker", link);
        await his.getByLabel("Username").waitFor();
        expect(his.url().startsWith(`${emulator.url}/`)).toBe(true);
        const repositoryAddress = his.url();

        // The repository's address, forwarded: Mei approves it there as herself; the callback refuses her.
        await hers.goto(repositoryAddress);
        await atRepository(hers, "mei-chen");
        await hers.getByRole("button", { name: "Approve" }).click();
        await hers.getByRole("heading", { name: "Sign-in refused" }).waitFor();
        expect(await hers.locator("body").textContent()).toContain(
          "came back to a browser that did not start it",
        );
        const herCallback = hers.url();
        expect(new URL(herCallback).searchParams.get("code")).toBeTruthy();
        await hers.context().close();
        expect(textOf(await client.callTool({ name: "protocols_get_profile", arguments: {} })).text).toMatch(
          /Not signed in/,
        );

        // The refused callback ended the sign-in: her callback address (with her code), opened in his
        // browser, which holds the cookie of his link, finds nothing.
        await his.goto(herCallback);
        await his.getByRole("heading", { name: "Sign-in refused" }).waitFor();
        expect(await his.locator("body").textContent()).toContain("belongs to no sign-in in progress");
        await his.context().close();
        expect(textOf(await client.callTool({ name: "protocols_get_profile", arguments: {} })).text).toMatch(
          /Not signed in/,
        );

        const again = await client.callTool({ name: "protocols_sign_in", arguments: {} });
        const newLink = (again.structuredContent as { sign_in_url: string | null }).sign_in_url ?? "";
        expect(newLink).not.toBe(link);
        const own = await openAs("Tom Becker", newLink);
        await atRepository(own, "tomas-garcia");
        await own.getByRole("button", { name: "Approve" }).click();
        await own.getByRole("heading", { name: "Signed in" }).waitFor();
        await own.context().close();
        const profile = textOf(await client.callTool({ name: "protocols_get_profile", arguments: {} }));
        expect(profile.text).toContain("tomas-garcia");
        expect(profile.text).not.toContain("mei-chen");
      } finally {
        await client.close();
      }
    });
  },
);
