// The identity provider's sign-in page in a real browser: an MCP client (the SDK v2's auth functions)
// sends the person to /authorize; they pick who they are and approve, or deny; the browser lands on the
// client's loopback redirect URI with the code (or the error), the state and the issuer.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type AuthorizationServerMetadata,
  discoverAuthorizationServerMetadata,
  exchangeAuthorization,
  type OAuthClientInformationFull,
  registerClient,
  startAuthorization,
} from "@modelcontextprotocol/client";
import { createRemoteJWKSet, jwtVerify } from "jose";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type IdentityProvider, startIdentityProvider } from "../../packages/emulators/src/idp/index.js";
import { CHROMIUM, launchChromium, NO_CHROMIUM, newBrowserProfile, screenshot } from "../support/browser.js";
import { testCa } from "../support/emulator.js";

if (!CHROMIUM) console.warn(NO_CHROMIUM);

const RESOURCE = "https://mcp.lab.example/mcp";

describe.skipIf(!CHROMIUM)("the identity provider's sign-in page in Chromium", () => {
  let idp: IdentityProvider;
  let browser: Browser;
  /** The client's loopback callback: it only says the browser arrived. */
  let callback: Server;
  let redirectUri: string;
  let metadata: AuthorizationServerMetadata;
  let client: OAuthClientInformationFull;

  beforeAll(async () => {
    const { certPem, keyPem } = testCa();
    idp = await startIdentityProvider({ ca: { certPem, keyPem } });
    callback = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<!doctype html><title>Back</title><h1>Back at the client</h1>");
    });
    await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
    redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    metadata = (await discoverAuthorizationServerMetadata(idp.issuer)) as AuthorizationServerMetadata;
    client = await registerClient(idp.issuer, {
      metadata,
      clientMetadata: {
        client_name: "Lab notebook agent",
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: "none",
      },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => callback?.close(resolve));
    await idp?.close();
  });

  async function openSignIn(state: string): Promise<{ page: Page; codeVerifier: string }> {
    const { authorizationUrl, codeVerifier } = await startAuthorization(idp.issuer, {
      metadata,
      clientInformation: client,
      redirectUrl: redirectUri,
      resource: RESOURCE,
      scope: "mcp",
      state,
    });
    const page = await (await newBrowserProfile(browser)).newPage();
    await page.goto(authorizationUrl.toString());
    await page.getByRole("heading", { name: "Sign in to Lab notebook agent" }).waitFor();
    return { page, codeVerifier };
  }

  async function landedOn(page: Page): Promise<URLSearchParams> {
    await page.getByRole("heading", { name: "Back at the client" }).waitFor();
    const url = new URL(page.url());
    expect(`${url.origin}${url.pathname}`).toBe(redirectUri);
    return url.searchParams;
  }

  it("lists the people; Approve as Tom Becker lands on the client with a code for him", async () => {
    const { page, codeVerifier } = await openSignIn("state-approve");
    const text = await page.locator("main").textContent();
    expect(text).toContain("Mira Patel (mira.patel@acme.example)");
    expect(text).toContain(`Access to: ${RESOURCE}`);
    await page.getByLabel("Tom Becker").check();
    await screenshot(page, "idp-sign-in");
    await page.getByRole("button", { name: "Approve" }).click();

    const back = await landedOn(page);
    expect(back.get("state")).toBe("state-approve");
    expect(back.get("iss")).toBe(idp.issuer);
    const tokens = await exchangeAuthorization(idp.issuer, {
      metadata,
      clientInformation: client,
      authorizationCode: back.get("code") ?? "",
      iss: back.get("iss") ?? "",
      codeVerifier,
      redirectUri,
    });
    const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(idp.jwksUri)), {
      issuer: idp.issuer,
      audience: RESOURCE,
    });
    expect(payload).toMatchObject({ email: "tom.becker@acme.example", client_id: client.client_id });
    await page.context().close();
  });

  it("Deny lands on the client with access_denied and the state, and no code", async () => {
    const issued = idp.admin.issuedTokens().length;
    const { page } = await openSignIn("state-deny");
    await page.getByRole("button", { name: "Deny" }).click();
    const back = await landedOn(page);
    expect(back.get("error")).toBe("access_denied");
    expect(back.get("state")).toBe("state-deny");
    expect(back.get("code")).toBeNull();
    expect(idp.admin.issuedTokens()).toHaveLength(issued);
    await page.context().close();
  });
});
