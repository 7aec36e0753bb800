#!/usr/bin/env node
// Runs the example service emulator in the foreground so example-mcp can be tried without credentials.
import { runEmulatorBin } from "../common/bin.js";
import { startExampleEmulator } from "../example/index.js";

const USAGE = `Usage: example-emulator [--port <n>] [--ca-file <path>]

  --port <n>         port to listen on, 127.0.0.1 only (default 0: pick a free port)
  --ca-file <path>   where to write the CA certificate PEM (default: a new temp file)
  --help             show this help`;

await runEmulatorBin({
  name: "example-emulator",
  usage: USAGE,
  takesSeed: false,
  async start(flags, ca, caFile) {
    const emulator = await startExampleEmulator({ port: flags.port, ca });
    const banner = [
      "example emulator listening",
      `  base URL:      ${emulator.url}`,
      `  API key:       ${emulator.apiKey}`,
      `  admin secret:  ${emulator.adminSecret}`,
      `  CA file:       ${caFile}`,
      "",
      "Use it with:",
      `  EXAMPLE_BASE_URL=${emulator.url} EXAMPLE_API_KEY=${emulator.apiKey} NODE_EXTRA_CA_CERTS=${caFile}`,
      "",
    ].join("\n");
    return { banner, close: () => emulator.close() };
  },
});
