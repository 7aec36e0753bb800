// No token, refresh token or client secret in anything a client, a log or the project tree gets: a whole
// session (sign-in, every tool, a refresh, failures) at debug log level, every notification and result
// recorded, then the project tree scanned for the secrets.
import { expect, it } from "vitest";
import { callText, ROOT } from "../support/clients.js";
import { useProtocolsEmulator } from "../support/emulator.js";
import {
  connectWithBrowser,
  filesContaining,
  loopbackApp,
  oauthEnv,
  tempHome,
  tokensIn,
} from "../support/protocols.js";

const emulator = useProtocolsEmulator();

it("keeps every secret out of results, notifications, errors and the project tree", async () => {
  const app = await loopbackApp(emulator);
  const home = tempHome();
  const connection = await connectWithBrowser(emulator, oauthEnv(emulator, app, home), "mei-chen");
  await connection.client.setLoggingLevel("debug");
  const texts: string[] = [];
  const secrets = new Set<string>([app.clientSecret, emulator.demo.clientAccessToken]);
  const remember = () => {
    const { access_token, refresh_token } = tokensIn(home.tokenFile);
    secrets.add(access_token);
    secrets.add(refresh_token);
  };
  const run = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await callText(connection, name, args);
    texts.push(result.text);
    return result;
  };

  expect((await run("protocols_sign_in")).isError).toBe(false);
  remember();
  await run("protocols_search", { keyword: "western blot" });
  await run("protocols_search", { keyword: "western blot", response_format: "json" });
  await run("protocols_get_protocol", {
    protocol: String(emulator.demo.sampleProtocol.id),
    response_format: "json",
  });
  await run("protocols_get_steps", { protocol: String(emulator.demo.sampleProtocol.id) });
  await run("protocols_list_my_protocols", { response_format: "json" });
  await run("protocols_get_profile", { response_format: "json" });
  await run("protocols_download_pdf", {
    protocol: emulator.demo.sampleProtocol.uri,
    response_format: "json",
  });
  emulator.clock.advance(366 * 24 * 3600 * 1000); // expired: a refresh and its rotation
  await run("protocols_get_profile");
  remember();
  emulator.faults.inject({ kind: "status", status: 500 }, { path: "/api/v3/protocols" });
  expect((await run("protocols_search", { keyword: "western blot" })).isError).toBe(true);
  emulator.faults.inject({ kind: "drop" }, { path: "/api/v4/", times: 2 }); // dropped, then sent again
  expect((await run("protocols_get_protocol", { protocol: "12314" })).isError).toBe(true);
  await connection.close();

  expect(secrets.size).toBe(6);
  expect(connection.heard.logs.length).toBeGreaterThan(10); // the debug lines of every request
  const heard = [
    ...texts,
    ...connection.heard.logs,
    ...connection.heard.progress,
    ...connection.heard.elicitations.map((e) => `${e.url} ${e.message}`),
  ].join("\n");
  for (const secret of secrets) expect(heard).not.toContain(secret);
  expect(home.tokenFile.startsWith(ROOT)).toBe(false);
  expect(filesContaining([...secrets])).toEqual([]);
});
