#!/usr/bin/env node
// Runs the example service emulator in the foreground so example-mcp can be tried without credentials.
import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { createCertificateAuthority, writeCaFile } from "../emulators/common/tls.js";
import { startExampleEmulator } from "../emulators/example/index.js";

const USAGE = `Usage: example-emulator [--port <n>] [--api-key <key>] [--ca-file <path>]

  --port <n>         port to listen on, 127.0.0.1 only (default 0: pick a free port)
  --api-key <key>    tenant API key to accept (default: random)
  --ca-file <path>   where to write the CA certificate PEM (default: a new temp file)
  --help             show this help`;

interface Flags {
  port: number;
  apiKey: string | undefined;
  caFile: string | undefined;
  help: boolean;
}

function parseFlags(argv: string[]): Flags {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: "string" },
      "api-key": { type: "string" },
      "ca-file": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const rawPort = values.port ?? "0";
  if (!/^\d+$/.test(rawPort) || Number(rawPort) > 65535) {
    throw new Error(`--port must be an integer from 0 to 65535, got '${rawPort}'`);
  }
  const apiKey = values["api-key"];
  if (apiKey !== undefined && !/^\S+$/.test(apiKey))
    throw new Error("--api-key must be non-empty, no spaces");
  if (values["ca-file"] === "") throw new Error("--ca-file must not be empty");
  return { port: Number(rawPort), apiKey, caFile: values["ca-file"], help: values.help ?? false };
}

async function main(): Promise<void> {
  let flags: Flags;
  try {
    flags = parseFlags(process.argv.slice(2));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`example-emulator: ${message.split("\n")[0]} (see --help)\n`);
    process.exit(2);
  }
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }

  const ca = await createCertificateAuthority();
  const caFile = await writeCaFile(ca, flags.caFile);
  const emulator = await startExampleEmulator({ port: flags.port, apiKey: flags.apiKey, ca });

  process.stdout.write(
    [
      "example emulator listening",
      `  base URL:      ${emulator.url}`,
      `  API key:       ${emulator.apiKey}`,
      `  admin secret:  ${emulator.adminSecret}`,
      `  CA file:       ${caFile}`,
      "",
      "Use it with:",
      `  EXAMPLE_BASE_URL=${emulator.url} EXAMPLE_API_KEY=${emulator.apiKey} NODE_EXTRA_CA_CERTS=${caFile}`,
      "",
    ].join("\n"),
  );

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
  process.stderr.write(`example-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
