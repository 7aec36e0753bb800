// Two server processes of the same user share one token file and find the access token expired at
// the same time: both refresh with the same refresh token, the repository rotates for the first and
// refuses the second (invalid_grant). The loser must take the pair the winner stored, never sign the
// process out. The token endpoint is slowed so that the refreshes overlap.
import { setTimeout as delay } from "node:timers/promises";
import { beforeAll, expect, it } from "vitest";
import type { ApplicationInfo } from "../../packages/emulators/src/protocols/index.js";
import { callText, connectStdio } from "../support/clients.js";
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

/** A token file signed in as mei-chen (through protocols_sign_in), and two bins sharing it. */
async function twoProcessesSharingOneSignIn() {
  const home = tempHome();
  const env = oauthEnv(emulator, app, home);
  const signer = await connectWithBrowser(emulator, env, "mei-chen");
  expect((await callText(signer, "protocols_sign_in")).isError).toBe(false);
  await signer.close();
  const signedIn = tokensIn(home.tokenFile);
  const one = await connectStdio("protocols-mcp", env);
  const two = await connectStdio("protocols-mcp", env);
  return { home, signedIn, one, two };
}

/** Whether the repository takes an access token. */
async function accepted(accessToken: string): Promise<boolean> {
  const response = await fetch(`${emulator.url}/api/v3/session/profile`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  return response.status === 200;
}

/** Waits (bounded) until the repository has received `count` token requests since the log was cleared. */
async function tokenRequestsArrived(count: number): Promise<void> {
  for (let i = 0; i < 500 && servedStartingWith(emulator, "/api/v3/oauth/token") < count; i++)
    await delay(10);
  expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(count);
}

const profile = (connection: Parameters<typeof callText>[0]) => callText(connection, "protocols_get_profile");

it("two processes sharing a token file both survive a refresh race on a slow token endpoint", async () => {
  const { home, signedIn, one, two } = await twoProcessesSharingOneSignIn();
  try {
    emulator.faults.inject({ kind: "delay", ms: 1500 }, { path: "/api/v3/oauth/token", times: 2 });
    emulator.clock.advance(YEAR_MS + 60_000);
    emulator.requests.clear();
    const both = await Promise.all([profile(one), profile(two)]);
    for (const result of both) expect(result).toMatchObject({ isError: false });
    for (const result of both) expect(result.text).toContain("Mei Chen (mei-chen)");
    expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(2); // both refreshed: a real race

    const stored = tokensIn(home.tokenFile);
    expect(stored.refresh_token).not.toBe(signedIn.refresh_token);
    expect(await accepted(stored.access_token)).toBe(true);
    for (const connection of [one, two]) expect((await profile(connection)).text).toContain("Mei Chen");
    expect(tokensIn(home.tokenFile)).toEqual(stored); // no further refresh was needed
  } finally {
    emulator.faults.clear();
    await one.close();
    await two.close();
  }
});

it("a loser that read the winner's pair while its own refresh was out keeps that pair", async () => {
  const { home, signedIn, one, two } = await twoProcessesSharingOneSignIn();
  try {
    // One's refresh is held at the repository; two's goes through, rotates, and is stored.
    emulator.faults.inject({ kind: "delay", ms: 3000 }, { path: "/api/v3/oauth/token", times: 1 });
    emulator.clock.advance(YEAR_MS + 60_000);
    emulator.requests.clear();
    const first = profile(one);
    await tokenRequestsArrived(1);
    expect((await profile(two)).text).toContain("Mei Chen (mei-chen)");
    const stored = tokensIn(home.tokenFile);
    expect(stored.refresh_token).not.toBe(signedIn.refresh_token);
    // Another call of one reads the file meanwhile and takes two's pair; then one's refresh is refused.
    expect((await profile(one)).text).toContain("Mei Chen (mei-chen)");
    const refused = await first;
    expect(refused).toMatchObject({ isError: false });
    expect(refused.text).toContain("Mei Chen (mei-chen)");
    expect(servedStartingWith(emulator, "/api/v3/oauth/token")).toBe(2);

    expect(tokensIn(home.tokenFile)).toEqual(stored);
    expect(await accepted(stored.access_token)).toBe(true);
    for (const connection of [one, two]) expect((await profile(connection)).text).toContain("Mei Chen");
  } finally {
    emulator.faults.clear();
    await one.close();
    await two.close();
  }
});
