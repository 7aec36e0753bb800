// The one-time secret page in a real browser: labdata_mcp has no credential, asks the client to open the
// page (URL-mode elicitation), and the user does what a person does there: types the API key, ticks
// "remember", sends it and reads the answer. The tool call then goes on with that key.
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { CHROMIUM, launchChromium, NO_CHROMIUM, newBrowserProfile, screenshot } from "../support/browser.js";
import { connectInMemory, startHttpBin, textOf } from "../support/clients.js";
import { useLabdataEmulator } from "../support/emulator.js";

if (!CHROMIUM) console.warn(NO_CHROMIUM);

/** The next URL the server asks the client to open; the client says yes and hands it to the browser. */
function nextPageToOpen(client: Client): Promise<{ url: string; message: string }> {
  return new Promise((resolve) => {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as { mode?: string; url: string; message: string };
      expect(params.mode).toBe("url");
      resolve({ url: params.url, message: params.message });
      return { action: "accept" };
    });
  });
}

describe.skipIf(!CHROMIUM)("the secret page in Chromium", () => {
  const emulator = useLabdataEmulator();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("takes the typed API key and remember: the tool goes on as that user and the key is stored (0600)", async () => {
    const { user, baseUrl } = emulator.demo;
    const file = join(mkdtempSync(join(tmpdir(), "labdata-browser-")), "lab-mcp", "labdata.json");
    const connection = await connectInMemory(
      labdataService,
      { LABDATA_BASE_URL: baseUrl, LABDATA_CREDENTIALS_FILE: file },
      { elicitation: { url: {} } },
    );
    const asked = nextPageToOpen(connection.client);
    const call = connection.client.callTool({ name: "labdata_get_current_user", arguments: {} });
    const { url, message } = await asked;
    expect(message).toBe("labdata_mcp needs an API key of the lab data platform. Open the page to enter it.");

    const page = await (await newBrowserProfile(browser)).newPage();
    await page.goto(url);
    expect(await page.title()).toBe("Lab data platform API key · lab-mcp");
    await page.getByLabel(`API key for ${baseUrl} (from your profile settings)`).fill(user.apiKey);
    await page.getByLabel(/Remember on this computer/).check();
    await screenshot(page, "secret-page");
    await page.getByRole("button", { name: "Send to the server" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect(await page.locator("body").textContent()).toContain(
      "You can close this window and go back to your assistant.",
    );
    await screenshot(page, "secret-page-sent");

    const result = textOf(await call);
    expect(result.isError).toBe(false);
    expect(result.text).toContain(`- **User**: ${user.name} (${user.id})`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ baseUrl, apiKey: user.apiKey });

    // One answer only: the page has stopped listening.
    await expect(page.goto(url)).rejects.toThrow(/ERR_CONNECTION_REFUSED/);
    await page.context().close();
    await connection.close();
  });

  it("asks again for a value of spaces; without remember, keeps the key for this server's life only", async () => {
    const { user, baseUrl } = emulator.demo;
    const file = join(mkdtempSync(join(tmpdir(), "labdata-browser-")), "lab-mcp", "labdata.json");
    const connection = await connectInMemory(
      labdataService,
      { LABDATA_BASE_URL: baseUrl, LABDATA_CREDENTIALS_FILE: file },
      { elicitation: { url: {} } },
    );
    const asked = nextPageToOpen(connection.client);
    const call = connection.client.callTool({ name: "labdata_get_current_user", arguments: {} });
    const page = await (await newBrowserProfile(browser)).newPage();
    await page.goto((await asked).url);
    const keyField = page.getByLabel(/^API key for /);
    const send = page.getByRole("button", { name: "Send to the server" });
    // Spaces pass the browser's "required" check, but are no key: the page asks again.
    await keyField.fill("   ");
    await send.click();
    expect(await page.getByRole("alert").textContent()).toBe("Please enter a value.");
    await keyField.fill(user.apiKey);
    expect(await page.getByLabel(/Remember on this computer/).isChecked()).toBe(false);
    await send.click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();

    expect(textOf(await call).text).toContain(user.name);
    expect(() => statSync(file)).toThrow(/ENOENT/);
    await page.context().close();
    await connection.close();
  });

  it("refuses the form when another site's page posts it, and still takes the user's own", async () => {
    const { user, baseUrl } = emulator.demo;
    const file = join(mkdtempSync(join(tmpdir(), "labdata-browser-")), "lab-mcp", "labdata.json");
    const connection = await connectInMemory(
      labdataService,
      { LABDATA_BASE_URL: baseUrl, LABDATA_CREDENTIALS_FILE: file },
      { elicitation: { url: {} } },
    );
    const asked = nextPageToOpen(connection.client);
    const call = connection.client.callTool({ name: "labdata_get_current_user", arguments: {} });
    const { url } = await asked;

    // Another site on this computer that learnt the address posts a key of its own to it, as a page can.
    const attacker = createServer((_req, res) => {
      res.setHeader("content-type", "text/html");
      res.end(
        `<form method="post" action="${url}"><input name="secret" value="planted-key"></form>` +
          "<script>document.forms[0].submit()</script>",
      );
    });
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    const page = await (await newBrowserProfile(browser)).newPage();
    try {
      const posted = page.waitForResponse((response) => response.url() === url);
      await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
      expect((await posted).status()).toBe(403);
    } finally {
      attacker.close();
    }

    await page.goto(url);
    await page.getByLabel(/^API key for /).fill(user.apiKey);
    await page.getByRole("button", { name: "Send to the server" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    const result = textOf(await call);
    expect(result.isError).toBe(false);
    expect(result.text).toContain(user.name);
    await page.context().close();
    await connection.close();
  });

  it("on a server shared over HTTP, offers no remember and says the key stays in this session", async () => {
    const { user, baseUrl } = emulator.demo;
    const file = join(mkdtempSync(join(tmpdir(), "labdata-browser-")), "lab-mcp", "labdata.json");
    const server = await startHttpBin("labdata-mcp", {
      LABDATA_BASE_URL: baseUrl,
      LABDATA_CREDENTIALS_FILE: file,
    });
    const client = new Client(
      { name: "lab-mcp-tests", version: "1.0.0" },
      { capabilities: { elicitation: { url: {} } } },
    );
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    const page = await (await newBrowserProfile(browser)).newPage();
    try {
      const asked = nextPageToOpen(client);
      await client.connect(transport);
      const call = client.callTool({ name: "labdata_get_current_user", arguments: {} });
      await page.goto((await asked).url);
      expect(await page.getByLabel(/Remember on this computer/).count()).toBe(0);
      expect(await page.locator("body").textContent()).toContain(
        "This server is shared over HTTP: the value is kept in its memory for your session only",
      );
      await page.getByLabel(/^API key for /).fill(user.apiKey);
      await screenshot(page, "secret-page-shared");
      await page.getByRole("button", { name: "Send to the server" }).click();
      await page.getByRole("heading", { name: "Thank you" }).waitFor();
      expect(textOf(await call).text).toContain(`- **User**: ${user.name} (${user.id})`);
      expect(() => statSync(file)).toThrow(/ENOENT/);
    } finally {
      await page.context().close();
      await transport.terminateSession().catch(() => undefined);
      await client.close();
      await server.stop();
    }
  });
});
