// Two people, two browsers, a team server at http://lab.localhost:PORT and a hostile sibling site at
// http://evil.lab.localhost:PORT2 (Chromium sends every *.localhost name to loopback and counts it as a
// secure origin, as https would be). Tom goes through his own pages in his browser; the sibling site then
// writes every cookie his browser holds for the server into Mira's browser under the parent domain
// (Domain=lab.localhost), as any site under the same parent can. His repository sign-in must not take
// her approval, and his key page must not take her for him: the server's cookies are `__Host-`, which a
// browser never takes with a Domain, and what they bind is random per browser, kept server-side.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import {
  CHROMIUM,
  launchChromium,
  NO_CHROMIUM,
  newBrowserProfile,
  openSignedInAs,
} from "../support/browser.js";
import {
  type HttpServerProcess,
  MODERN_PROTOCOL,
  newModernClient,
  startHttpBin,
  textOf,
} from "../support/clients.js";
import { testCa, useLabdataEmulator, useProtocolsEmulator } from "../support/emulator.js";
import { accessTokenHeadless, registerServerClient } from "../support/oauth-client.js";
import { freePort } from "../support/ports.js";
import { passwordOf, tempHome } from "../support/protocols.js";

if (!CHROMIUM) console.warn(NO_CHROMIUM);

const TOM = "tom.becker@acme.example";
const REDIRECT = "http://127.0.0.1:9/callback";
const PARENT = "lab.localhost";

/**
 * The sibling site: GET /plant?c=<JSON [{name, value, path}]> answers one Set-Cookie per cookie, each
 * for the parent domain, as a page of evil.lab.localhost may write them.
 */
async function startSiblingSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://evil.lab.localhost");
    const cookies = JSON.parse(url.searchParams.get("c") ?? "[]") as Array<{
      name: string;
      value: string;
      path: string;
    }>;
    res.writeHead(200, {
      "content-type": "text/html",
      "set-cookie": cookies.map(
        ({ name, value, path }) => `${name}=${value}; Domain=${PARENT}; Path=${path}; SameSite=Lax`,
      ),
    });
    res.end("<h1>Nothing to see here</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://evil.${PARENT}:${(server.address() as AddressInfo).port}`, server };
}

/** Every cookie of the server's host in `from` (Tom's browser), written by the sibling site into `into`. */
async function plantVia(sibling: string, from: BrowserContext, into: Page): Promise<void> {
  const cookies = (await from.cookies()).filter((cookie) => cookie.domain.endsWith(PARENT));
  expect(cookies.length).toBeGreaterThan(0);
  const c = JSON.stringify(cookies.map(({ name, value, path }) => ({ name, value, path })));
  await into.goto(`${sibling}/plant?c=${encodeURIComponent(c)}`);
  await into.getByRole("heading", { name: "Nothing to see here" }).waitFor();
}

/** A client of `port` on loopback with `token`, for the server whose public URL is on lab.localhost. */
function endpointsOf(port: number) {
  return { publicUrl: `http://${PARENT}:${port}/mcp`, local: `http://127.0.0.1:${port}/mcp` };
}

describe.skipIf(!CHROMIUM)("cookies a sibling site plants, in Chromium", () => {
  const protocols = useProtocolsEmulator();
  const labdata = useLabdataEmulator();
  let idp: IdentityProvider;
  let browser: Browser;
  let sibling: { origin: string; server: Server };
  const servers: HttpServerProcess[] = [];

  beforeAll(async () => {
    idp = await startIdentityProvider({ ca: testCa(), clock: labdata.clock });
    sibling = await startSiblingSite();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await server.stop();
    await new Promise((resolve) => sibling?.server.close(resolve));
    await idp?.close();
  });

  it("do not make Mira's repository approval Tom's sign-in", async () => {
    protocols.admin.updateSettings({ browserSessionUser: null });
    const port = await freePort();
    const { publicUrl, local } = endpointsOf(port);
    const origin = new URL(publicUrl).origin;
    const app = protocols.admin.createApplication({
      owner: "ada-okafor",
      redirectUri: `${origin}/oauth/protocols/callback`,
      name: "lab-mcp team server",
    });
    const home = tempHome();
    const server = await startHttpBin("protocols-mcp", {
      HOME: home.dir,
      XDG_CONFIG_HOME: home.xdgConfig,
      PROTOCOLS_BASE_URL: protocols.url,
      PROTOCOLS_CLIENT_ID: app.clientId,
      PROTOCOLS_CLIENT_SECRET: app.clientSecret,
      PROTOCOLS_REDIRECT_URI: app.redirectUri,
      PROTOCOLS_DOWNLOAD_DIR: home.downloads,
      MCP_AUTH_ISSUER: idp.issuer,
      MCP_AUTH_AUDIENCE: publicUrl,
      MCP_PORT: String(port),
      ...(await registerServerClient(idp, origin)),
    });
    servers.push(server);
    const token = await accessTokenHeadless(idp, TOM, publicUrl, REDIRECT);
    const client = newModernClient({});
    await client.connect(
      new ModernStreamableHTTPClientTransport(new URL(local), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const asked = await client.callTool({ name: "protocols_sign_in", arguments: {} });
      const link = (asked.structuredContent as { sign_in_url: string | null }).sign_in_url ?? "";
      expect(link.startsWith(`${origin}/oauth/protocols/connect/`)).toBe(true);

      // Tom's browser goes through his own link, up to the repository's sign-in form.
      const his = await openSignedInAs(browser, "Tom Becker", link);
      await his.getByLabel("Username").waitFor();
      const repositoryAddress = his.url();
      expect(repositoryAddress.startsWith(`${protocols.url}/`)).toBe(true);

      // The sibling site writes his cookies into Mira's browser; she approves the address he sends her.
      const hers = await (await newBrowserProfile(browser)).newPage();
      await plantVia(sibling.origin, his.context(), hers);
      await hers.goto(repositoryAddress);
      await hers.getByLabel("Username").fill("mei-chen");
      await hers.getByLabel("Password").fill(passwordOf(protocols, "mei-chen"));
      await hers.getByRole("button", { name: "Sign in" }).click();
      await hers.getByRole("button", { name: "Approve" }).click();
      await hers.getByRole("heading", { name: "Sign-in refused" }).waitFor();
      expect(await hers.locator("body").textContent()).toContain(
        "came back to a browser that did not start it",
      );

      const profile = textOf(await client.callTool({ name: "protocols_get_profile", arguments: {} }));
      expect(profile.text).not.toContain("mei-chen");
      expect(profile.text).toMatch(/Not signed in/);
      await his.context().close();
      await hers.context().close();
    } finally {
      await client.close();
    }
  });

  it("do not make Mira's browser Tom's on his key page", async () => {
    const { colleague: tom } = labdata.demo;
    const port = await freePort();
    const { publicUrl, local } = endpointsOf(port);
    const server = await startHttpBin("labdata-mcp", {
      LABDATA_BASE_URL: labdata.demo.baseUrl,
      MCP_AUTH_ISSUER: idp.issuer,
      MCP_AUTH_AUDIENCE: publicUrl,
      MCP_PORT: String(port),
      ...(await registerServerClient(idp, new URL(publicUrl).origin)),
    });
    servers.push(server);
    const token = await accessTokenHeadless(idp, tom.email, publicUrl, REDIRECT);
    const client = new ModernClient(
      { name: "planted-cookie-test", version: "1.0.0" },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } },
    );
    const opened = new Promise<string>((resolve) => {
      client.setRequestHandler("elicitation/create", async (request) => {
        resolve((request.params as { url: string }).url);
        return { action: "accept" };
      });
    });
    await client.connect(
      new ModernStreamableHTTPClientTransport(new URL(local), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const call = client.callTool({ name: "labdata_get_current_user", arguments: {} });
      const url = await opened;
      expect(url.startsWith(`${new URL(publicUrl).origin}/secret/`)).toBe(true);

      // Tom's browser signs in on his page and sees the form.
      const his = await openSignedInAs(browser, "Tom Becker", url);
      await his.waitForURL(url);
      await his.locator("#secret").waitFor();

      // His cookies, planted in Mira's browser: the page sends her to sign in, and shows her no form.
      const hers = await (await newBrowserProfile(browser)).newPage();
      await plantVia(sibling.origin, his.context(), hers);
      await hers.goto(url);
      await hers.getByRole("heading", { name: "Sign in to lab-mcp team server" }).waitFor();
      expect(await hers.locator("#secret").count()).toBe(0);
      await hers.context().close();

      await his.locator("#secret").fill(tom.apiKey);
      await his.getByRole("button", { name: "Send to the server" }).click();
      await his.getByRole("heading", { name: "Thank you" }).waitFor();
      await his.context().close();
      expect(textOf(await call).text).toContain(`- **User**: ${tom.name} (${tom.id})`);
    } finally {
      await client.close();
    }
  });
});
