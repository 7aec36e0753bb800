#!/usr/bin/env node
// Runs the protocol repository emulator in the foreground with demo data, so protocols-mcp and the OAuth
// sign-in can be tried without an account.
import { runEmulatorBin } from "../common/bin.js";
import {
  DEFAULT_DIALECT_PRESET,
  type DemoSetup,
  DIALECT_PRESETS,
  type DialectPreset,
  startProtocolsEmulator,
} from "../protocols/index.js";

const USAGE = `Usage: protocols-emulator [--port <n>] [--seed <n>] [--ca-file <path>] [--dialect <preset>]

  --port <n>         port to listen on, 127.0.0.1 only (default 0: pick a free port)
  --seed <n>         seed of the demo protocols, an integer from 0 to 4294967295 (same seed, same data)
  --ca-file <path>   where to write the CA certificate PEM (default: a new temp file)
  --dialect <preset> how answers are worded: ${DIALECT_PRESETS.join(" or ")} (default ${DEFAULT_DIALECT_PRESET});
                     recorded sends the shapes the real service was recorded to send
  --help             show this help`;

// Single quotes keep the shell from touching '&' and '?' in the URLs.
function banner(url: string, adminSecret: string, caFile: string, demo: DemoSetup, dialect: string): string {
  const { application: app, clientAccessToken: token, sampleProtocol: sample } = demo;
  const auth = `-H 'Authorization: Bearer ${token}'`;
  const authorize = new URL("/api/v3/oauth/authorize", url);
  authorize.search = new URLSearchParams({
    client_id: app.clientId,
    redirect_uri: app.redirectUri,
    response_type: "code",
    state: "try-me",
  }).toString();
  const width = Math.max(...demo.users.map((u) => u.username.length));
  return [
    "protocols emulator listening",
    `  base URL:       ${url}`,
    `  admin secret:   ${adminSecret}`,
    `  CA file:        ${caFile}`,
    `  dialect:        ${dialect}`,
    "",
    "Demo users (sign in on the authorize page):",
    ...demo.users.map((u) => `  ${u.username.padEnd(width)}  password: ${u.password}  (${u.name})`),
    "",
    `Demo client application "${app.name}" (owner ${app.owner}):`,
    `  client_id:      ${app.clientId}`,
    `  client_secret:  ${app.clientSecret}`,
    `  redirect_uri:   ${app.redirectUri}`,
    `  CLIENT_ACCESS_TOKEN: ${token}`,
    "",
    "Try it:",
    `  curl --cacert ${caFile} ${auth} '${url}/api/v3/protocols?filter=public&key=western%20blot&page_size=3'`,
    `  curl --cacert ${caFile} ${auth} '${url}/api/v4/protocols/${sample.id}/steps'`,
    `  curl --cacert ${caFile} ${auth} '${url}/api/v3/session/profile'`,
    `  curl --cacert ${caFile} -o protocol.pdf '${url}/view/${sample.uri}.pdf'`,
    "",
    "OAuth sign-in: open this in a browser, sign in as a demo user and approve:",
    `  ${authorize}`,
    "then exchange the code from the redirect:",
    `  curl --cacert ${caFile} -d grant_type=authorization_code -d code=CODE -d client_id=${app.clientId} -d client_secret=${app.clientSecret} --data-urlencode redirect_uri=${app.redirectUri} '${url}/api/v3/oauth/token'`,
    "",
    "Use it with:",
    `  PROTOCOLS_BASE_URL=${url} PROTOCOLS_ACCESS_TOKEN=${token} NODE_EXTRA_CA_CERTS=${caFile}`,
    "",
  ].join("\n");
}

await runEmulatorBin({
  name: "protocols-emulator",
  usage: USAGE,
  takesSeed: true,
  choiceFlags: { dialect: DIALECT_PRESETS },
  async start(flags, ca, caFile) {
    const dialect = flags.choices.dialect as DialectPreset | undefined;
    const emulator = await startProtocolsEmulator({ port: flags.port, seed: flags.seed, ca, dialect });
    if (!emulator.demo) throw new Error("the emulator started without its demo data");
    return {
      banner: banner(
        emulator.url,
        emulator.adminSecret,
        caFile,
        emulator.demo,
        emulator.admin.dialect().preset,
      ),
      close: () => emulator.close(),
    };
  },
});
