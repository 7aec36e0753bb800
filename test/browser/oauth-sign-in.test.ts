// The OAuth sign-in pages in a real browser: protocols_sign_in asks the client to open the repository's
// authorize page (URL-mode elicitation); the user signs in on the repository emulator's form, approves
// (or denies) on its consent page, and the browser lands on our callback page, which says how it went.
import { statSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { CHROMIUM, launchChromium, NO_CHROMIUM, newBrowserProfile, screenshot } from "../support/browser.js";
import { connectInMemory, textOf } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import { loopbackApp, oauthEnv, passwordOf, tempHome } from "../support/protocols.js";

if (!CHROMIUM) console.warn(NO_CHROMIUM);

/** The next URL the server asks the client to open; the client says yes and hands it to the browser. */
function nextPageToOpen(client: Client): Promise<string> {
  return new Promise((resolve) => {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as { mode?: string; url: string };
      expect(params.mode).toBe("url");
      resolve(params.url);
      return { action: "accept" };
    });
  });
}

/** Types the user name and password on the repository's sign-in form and presses Sign in. */
async function signIn(page: Page, username: string, password: string, shot?: string): Promise<void> {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  if (shot) await screenshot(page, shot);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describe.skipIf(!CHROMIUM)("the OAuth sign-in pages in Chromium", () => {
  const emulator = useProtocolsEmulator();
  let browser: Browser;
  beforeAll(async () => {
    // Nobody is signed in at the repository: its sign-in form comes first.
    emulator.admin.updateSettings({ browserSessionUser: null });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("signs in, approves, and lands on our page saying so; the tool is signed in as that user", async () => {
    const app = await loopbackApp(emulator);
    const home = tempHome();
    const connection = await connectInMemory(protocolsService, oauthEnv(emulator, app, home), {
      elicitation: { url: {} },
    });
    const asked = nextPageToOpen(connection.client);
    const call = connection.client.callTool({ name: "protocols_sign_in", arguments: {} });

    const page = await (await newBrowserProfile(browser)).newPage();
    await page.goto(await asked);
    expect(await page.getByRole("heading").textContent()).toBe("Sign in to continue to lab-mcp tests");
    await signIn(page, "mei-chen", passwordOf(emulator, "mei-chen"), "oauth-sign-in");

    await page.getByRole("heading", { name: "lab-mcp tests wants to access your account" }).waitFor();
    expect(await page.locator("main").textContent()).toContain("Signed in as Mei Chen (mei-chen).");
    await screenshot(page, "oauth-consent");
    await page.getByRole("button", { name: "Approve" }).click();

    await page.getByRole("heading", { name: "Signed in" }).waitFor();
    expect(page.url().startsWith(`${app.redirectUri}?`)).toBe(true);
    expect(await page.locator("body").textContent()).toContain(
      "You are signed in to the protocol repository. You can close this tab.",
    );
    await screenshot(page, "oauth-signed-in");

    const result = textOf(await call);
    expect(result.isError).toBe(false);
    expect(result.text).toMatch(/^Signed in to the protocol repository as Mei Chen \(mei-chen\)\./);
    expect(statSync(home.tokenFile).mode & 0o777).toBe(0o600);
    const profile = textOf(
      await connection.client.callTool({ name: "protocols_get_profile", arguments: {} }),
    );
    expect(profile.text).toContain("- **User**: Mei Chen (mei-chen)");
    await page.context().close();
    await connection.close();
  });

  it("says so on the form for a wrong password; Deny lands on our page saying nothing was signed in", async () => {
    const app = await loopbackApp(emulator);
    const home = tempHome();
    const connection = await connectInMemory(protocolsService, oauthEnv(emulator, app, home), {
      elicitation: { url: {} },
    });
    const asked = nextPageToOpen(connection.client);
    const call = connection.client.callTool({ name: "protocols_sign_in", arguments: {} });

    const page = await (await newBrowserProfile(browser)).newPage();
    await page.goto(await asked);
    await signIn(page, "mei-chen", "not her password");
    expect(await page.getByRole("alert").textContent()).toBe("Wrong username or password.");
    // The form keeps the user name, and takes the right password now.
    expect(await page.getByLabel("Username").inputValue()).toBe("mei-chen");
    await signIn(page, "mei-chen", passwordOf(emulator, "mei-chen"));
    await page.getByRole("button", { name: "Deny" }).click();

    await page.getByRole("heading", { name: "Sign-in not completed" }).waitFor();
    expect(page.url().startsWith(`${app.redirectUri}?`)).toBe(true);
    expect(await page.locator("body").textContent()).toContain(
      "The repository did not grant access (access_denied: the sign-in was declined). Nothing was signed in.",
    );
    await screenshot(page, "oauth-denied");

    expect(textOf(await call)).toEqual({
      isError: true,
      text:
        "Error: The sign-in was not completed in the browser (access_denied: the sign-in was declined). " +
        "Call protocols_sign_in to try again.",
    });
    expect(() => statSync(home.tokenFile)).toThrow(/ENOENT/);
    await page.context().close();
    await connection.close();
  });
});
