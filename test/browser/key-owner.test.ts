// Whose key a team server's key page takes, when the identity provider's access tokens carry no email
// (Auth0, Okta and Entra ID by default): the key's user (users/me) is compared with the email of the ID
// token the browser's sign-in obtained, and with no email anywhere the key is refused, never kept
// unchecked. Two people: Tom's page, in Tom's own browser, given Mira's key, keeps nothing.
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { CHROMIUM, NO_CHROMIUM, openSignedInAs } from "../support/browser.js";
import { MODERN_PROTOCOL, textOf } from "../support/clients.js";
import { accessTokenHeadless } from "../support/oauth-client.js";
import { useTeamKeyPageServer } from "../support/team-key-page.js";

if (!CHROMIUM) console.warn(NO_CHROMIUM);

const REDIRECT = "http://127.0.0.1:9/callback";

describe.skipIf(!CHROMIUM)(
  "the key page of a team server whose access tokens carry no email, in Chromium",
  () => {
    const team = useTeamKeyPageServer();
    const { emulator } = team;

    /** Tom's agent, with a token without email; each page it is sent to gets `typed` in Tom's browser. */
    async function tomsAgent(typed: () => string) {
      const { colleague: tom } = emulator.demo;
      const token = await accessTokenHeadless(team.idp, tom.email, team.publicUrl, REDIRECT);
      const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as {
        email?: string;
      };
      expect(payload.email).toBeUndefined();
      const client = new ModernClient(
        { name: "key-owner-test", version: "1.0.0" },
        {
          capabilities: { elicitation: { url: {} } },
          versionNegotiation: { mode: { pin: MODERN_PROTOCOL } },
        },
      );
      client.setRequestHandler("elicitation/create", async (request) => {
        const { url } = request.params as { url: string };
        const page = await openSignedInAs(team.browser, "Tom Becker", url);
        await page.locator("#secret").fill(typed());
        await page.getByRole("button", { name: "Send to the server" }).click();
        await page.getByRole("heading", { name: "Thank you" }).waitFor();
        await page.context().close();
        return { action: "accept" };
      });
      await client.connect(
        new ModernStreamableHTTPClientTransport(new URL(team.publicUrl), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      const whoAmI = async () =>
        textOf(await client.callTool({ name: "labdata_get_current_user", arguments: {} }));
      return { client, whoAmI };
    }

    it("refuses Mira's key typed on Tom's page, by the email of his browser's ID token; takes his own", async () => {
      const { user: mira, colleague: tom } = emulator.demo;
      team.idp.admin.emailClaims({ accessToken: false, idToken: true });
      let typed = mira.apiKey;
      const { client, whoAmI } = await tomsAgent(() => typed);
      try {
        const refused = await whoAmI();
        expect(refused.isError).toBe(true);
        expect(refused.text).toContain(
          `The API key entered on the page belongs to another user of the lab data platform than ${tom.email}`,
        );
        typed = tom.apiKey;
        const own = await whoAmI();
        expect(own.text).toContain(`- **User**: ${tom.name} (${tom.id})`);
        expect(own.text).not.toContain(mira.name);
      } finally {
        await client.close();
      }
    });

    it("refuses even his own key when neither token names an email: it cannot tell whose key it is", async () => {
      const { colleague: tom } = emulator.demo;
      team.idp.admin.emailClaims({ accessToken: false, idToken: false });
      const { client, whoAmI } = await tomsAgent(() => tom.apiKey);
      try {
        // The key he gave above is forgotten: the next call asks again.
        expect(textOf(await client.callTool({ name: "labdata_sign_out", arguments: {} })).isError).toBe(
          false,
        );
        const refused = await whoAmI();
        expect(refused.isError).toBe(true);
        expect(refused.text).toContain("The API key entered on the page could not be matched to you");
        expect(refused.text).not.toContain(tom.name);
      } finally {
        await client.close();
        team.idp.admin.emailClaims({ accessToken: true, idToken: true });
      }
    });
  },
);
