// An OAuth sign-in keeps working without the user noticing: tokens are renewed shortly before they
// expire and once after the repository says they have expired, one refresh for all concurrent calls,
// the rotated pair stored at once, and a pair stored by another process adopted rather than refreshed.
import { setTimeout as delay } from "node:timers/promises";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ApplicationInfo } from "../../packages/emulators/src/protocols/index.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { callText, connectInMemory } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import {
  connectWithBrowser,
  loopbackApp,
  oauthEnv,
  servedStartingWith,
  tempHome,
  tokensIn,
} from "../support/protocols.js";

const YEAR_MS = 365 * 24 * 3600 * 1000;
const emulator = useProtocolsEmulator();
let app: ApplicationInfo;
beforeAll(async () => {
  app = await loopbackApp(emulator);
});
afterEach(() => {
  emulator.admin.updateSettings({ accessTokenLifetimeSeconds: 365 * 24 * 3600 });
});

/** A server signed in as mei-chen through protocols_sign_in, with its own token file. */
async function signedInServer(home = tempHome()) {
  const connection = await connectWithBrowser(emulator, oauthEnv(emulator, app, home), "mei-chen");
  expect((await callText(connection, "protocols_sign_in")).isError).toBe(false);
  return { connection, home };
}

const profile = (connection: Parameters<typeof callText>[0]) => callText(connection, "protocols_get_profile");

/** Whether the repository still takes an access token. */
async function accepted(accessToken: string): Promise<boolean> {
  const response = await fetch(`${emulator.url}/api/v3/session/profile`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return response.ok;
}

describe("refresh", () => {
  it("renews before the access token expires, without meeting a 401, and stores the rotated pair", async () => {
    emulator.admin.updateSettings({ accessTokenLifetimeSeconds: 64 }); // renewed 60 s before expiry
    const { connection, home } = await signedInServer();
    const first = tokensIn(home.tokenFile);
    emulator.requests.clear();
    expect((await profile(connection)).text).toContain("Mei Chen (mei-chen)");
    expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(0);

    await delay(4200);
    emulator.requests.clear();
    expect((await profile(connection)).text).toContain("Mei Chen (mei-chen)");
    expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(1);
    expect(servedStartingWith(emulator, "/api/v3/session/profile")).toBe(1); // never refused
    const second = tokensIn(home.tokenFile);
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    // The repository rotates: the old access token is dead, the new one works.
    expect(await accepted(first.access_token)).toBe(false);
    expect(await accepted(second.access_token)).toBe(true);
    await connection.close();
  });

  it("renews once after the repository says the token expired (its clock moved on a year)", async () => {
    const { connection, home } = await signedInServer();
    const first = tokensIn(home.tokenFile);
    emulator.clock.advance(YEAR_MS + 60_000);
    emulator.requests.clear();
    expect((await profile(connection)).text).toContain("Mei Chen (mei-chen)");
    expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(1);
    expect(servedStartingWith(emulator, "/api/v3/session/profile")).toBe(2); // refused (1219), then again
    expect(tokensIn(home.tokenFile).refresh_token).not.toBe(first.refresh_token);
    await connection.close();
  });

  it("shares one refresh between concurrent calls", async () => {
    const { connection } = await signedInServer();
    emulator.clock.advance(YEAR_MS + 60_000);
    emulator.requests.clear();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        callText(connection, "protocols_search", { keyword: "western blot", limit: 1, offset: i }),
      ),
    );
    for (const result of results) expect(result.isError).toBe(false);
    expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(1);
    await connection.close();
  });

  it("adopts the pair another process refreshed to, instead of refreshing again", async () => {
    const home = tempHome();
    const { connection: one } = await signedInServer(home);
    const two = await connectInMemory(protocolsService, oauthEnv(emulator, app, home));
    emulator.clock.advance(YEAR_MS + 60_000);
    emulator.requests.clear();
    expect((await profile(two)).text).toContain("Mei Chen");
    expect((await profile(one)).text).toContain("Mei Chen");
    expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(1);
    expect(servedStartingWith(emulator, "/api/v3/session/profile")).toBe(3); // two's refused one, two's retry, one's

    // Both at once: one refresh wins, the loser finds the winner's pair in the file.
    emulator.clock.advance(YEAR_MS + 60_000);
    emulator.requests.clear();
    const both = await Promise.all([profile(one), profile(two)]);
    for (const result of both) expect(result.text).toContain("Mei Chen");
    await one.close();
    await two.close();
  });

  it("says to sign in again when the sign-in was revoked, and works again after signing in", async () => {
    const { connection, home } = await signedInServer();
    // Someone else uses the refresh token and keeps the new pair: ours is revoked by the rotation.
    const stolen = tokensIn(home.tokenFile);
    const response = await fetch(`${emulator.url}/api/v3/oauth/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: stolen.refresh_token,
        client_id: app.clientId,
        client_secret: app.clientSecret,
      }),
    });
    expect(response.status).toBe(200);
    const ended =
      "Error: The sign-in to the protocol repository has expired or was revoked. Call protocols_sign_in (your " +
      "client opens the sign-in page), or run 'protocols-mcp login' in a terminal to sign in again.";
    expect(await profile(connection)).toEqual({ isError: true, text: ended });
    emulator.requests.clear();
    expect(await profile(connection)).toEqual({ isError: true, text: ended });
    expect(emulator.requests.count()).toBe(0); // no hopeless refresh again

    expect((await callText(connection, "protocols_sign_in")).isError).toBe(false);
    expect((await profile(connection)).text).toContain("Mei Chen (mei-chen)");
    await connection.close();
  });
});
