#!/usr/bin/env node
// Runs the protocol repository emulator in the foreground with demo data, so protocols-mcp and the OAuth
// sign-in can be tried without an account.
import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { createCertificateAuthority, writeCaFile } from "../emulators/common/tls.js";
import { type DemoSetup, startProtocolsEmulator } from "../emulators/protocols/index.js";

const USAGE = `Usage: protocols-emulator [--port <n>] [--seed <n>] [--ca-file <path>]

  --port <n>         port to listen on, 127.0.0.1 only (default 0: pick a free port)
  --seed <n>         seed of the demo protocols, an integer from 0 to 4294967295 (same seed, same data)
  --ca-file <path>   where to write the CA certificate PEM (default: a new temp file)
  --help             show this help`;

interface Flags {
  port: number;
  seed: number | undefined;
  caFile: string | undefined;
  help: boolean;
}

function integerFlag(name: string, raw: string, max: number): number {
  if (!/^\d+$/.test(raw) || Number(raw) > max) {
    throw new Error(`--${name} must be an integer from 0 to ${max}, got '${raw}'`);
  }
  return Number(raw);
}

function parseFlags(argv: string[]): Flags {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: "string" },
      seed: { type: "string" },
      "ca-file": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values["ca-file"] === "") throw new Error("--ca-file must not be empty");
  return {
    port: integerFlag("port", values.port ?? "0", 65535),
    seed: values.seed === undefined ? undefined : integerFlag("seed", values.seed, 4_294_967_295),
    caFile: values["ca-file"],
    help: values.help ?? false,
  };
}

// Single quotes keep the shell from touching '&' and '?' in the URLs.
function banner(url: string, adminSecret: string, caFile: string, demo: DemoSetup): string {
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

async function main(): Promise<void> {
  let flags: Flags;
  try {
    flags = parseFlags(process.argv.slice(2));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`protocols-emulator: ${message.split("\n")[0]} (see --help)\n`);
    process.exit(2);
  }
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }

  const ca = await createCertificateAuthority();
  const caFile = await writeCaFile(ca, flags.caFile);
  const emulator = await startProtocolsEmulator({ port: flags.port, seed: flags.seed, ca });
  if (!emulator.demo) throw new Error("the emulator started without its demo data");
  process.stdout.write(banner(emulator.url, emulator.adminSecret, caFile, emulator.demo));

  const stop = (): void => {
    // A CA file we chose the place of is ours to remove; one the user named is theirs.
    const removeCa = flags.caFile ? Promise.resolve() : rm(dirname(caFile), { recursive: true, force: true });
    Promise.all([emulator.close(), removeCa]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`protocols-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
