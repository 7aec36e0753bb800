// Two people, two browsers, one team server: Tom's assistant asks for his lab platform key and he
// forwards the page to Mira. Her browser signs in at the identity provider as her, and the page refuses
// her (saying whose it is) without a field to type in; Tom's own browser signs in as him and answers it.
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CHROMIUM, NO_CHROMIUM, openSignedInAs, screenshot } from "../support/browser.js";
import { MODERN_PROTOCOL, textOf } from "../support/clients.js";
import { HeadlessOAuthProvider, signInHeadless } from "../support/oauth-client.js";
import { useTeamKeyPageServer } from "../support/team-key-page.js";

if (!CHROMIUM) console.warn(NO_CHROMIUM);

describe.skipIf(!CHROMIUM)("a team server's key page forwarded to someone else, in Chromium", () => {
  const team = useTeamKeyPageServer();
  const { emulator } = team;

  /** A person's browser opens `url`, signs in at the identity provider as `name`, and comes back. */
  async function openAs(name: string, url: string): Promise<Page> {
    const page = await openSignedInAs(team.browser, name, url);
    await page.waitForURL(url);
    return page;
  }

  it("refuses Mira's browser on Tom's page, and takes Tom's key from his own", async () => {
    const { user: mira, colleague: tom } = emulator.demo;
    team.idp.admin.autoApprove(tom.email);
    const provider = new HeadlessOAuthProvider({ redirectUrl: "http://127.0.0.1:9/callback" });
    await signInHeadless(provider, team.publicUrl);
    // From now on people pick themselves on the identity provider's page.
    team.idp.admin.autoApprove(null);
    const client = new ModernClient(
      { name: "forwarded-page-test", version: "1.0.0" },
      { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: MODERN_PROTOCOL } } },
    );
    const opened = new Promise<string>((resolve) => {
      client.setRequestHandler("elicitation/create", async (request) => {
        resolve((request.params as { url: string }).url);
        return { action: "accept" };
      });
    });
    await client.connect(
      new ModernStreamableHTTPClientTransport(new URL(team.publicUrl), { authProvider: provider }),
    );
    try {
      const call = client.callTool({ name: "labdata_get_current_user", arguments: {} });
      const url = await opened;

      const hers = await openAs("Mira Patel", url);
      await hers.getByRole("heading", { name: "This page is not yours" }).waitFor();
      const refusal = (await hers.locator("body").textContent()) ?? "";
      expect(refusal).toContain(`the assistant of ${tom.email}`);
      expect(refusal).toContain(`(${mira.email})`);
      expect(refusal).toContain("Nothing was sent.");
      expect(await hers.locator('input[type="password"]').count()).toBe(0);
      await screenshot(hers, "secret-page-not-yours");
      await hers.context().close();

      const his = await openAs("Tom Becker", url);
      expect(await his.locator("body").textContent()).toContain(`This page is for ${tom.email} alone.`);
      await his.locator("#secret").fill(tom.apiKey);
      await his.getByRole("button", { name: "Send to the server" }).click();
      await his.getByRole("heading", { name: "Thank you" }).waitFor();
      await his.context().close();

      const answer = textOf(await call);
      expect(answer.text).toContain(`- **User**: ${tom.name} (${tom.id})`);
    } finally {
      await client.close();
    }
  });
});
