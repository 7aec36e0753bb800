// The sandbox: emulators with demo data and the tool servers on them, on loopback, no account needed.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCertificateAuthority } from "../emulators/common/tls.js";
import { startExampleEmulator } from "../emulators/example/index.js";
import { clientConfigs, type SandboxServer } from "./client-config.js";
import { startToolServer } from "./tool-server-process.js";

const BIN_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "bin");

export interface Sandbox {
  servers: SandboxServer[];
  banner: string;
  stop(): Promise<void>;
}

export async function startSandbox(options: { basePort: number }): Promise<Sandbox> {
  // The CA lives outside the project tree and is removed on stop.
  const dir = mkdtempSync(join(tmpdir(), "lab-sandbox-"));
  const caFile = join(dir, "ca.pem");
  const stops: Array<() => Promise<void>> = [async () => rmSync(dir, { recursive: true, force: true })];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
  };

  try {
    const ca = await createCertificateAuthority("lab-sandbox CA");
    writeFileSync(caFile, ca.certPem);
    const example = await startExampleEmulator({ ca });
    stops.push(() => example.close());

    const exampleBin = join(BIN_DIR, "example-mcp.js");
    const exampleEnv = { EXAMPLE_BASE_URL: example.url, EXAMPLE_API_KEY: example.apiKey };
    const exampleServer = await startToolServer({
      binPath: exampleBin,
      port: options.basePort,
      caFile,
      env: exampleEnv,
    });
    stops.push(() => exampleServer.stop());

    const servers: SandboxServer[] = [
      {
        key: "lab-example",
        url: exampleServer.url,
        stdio: {
          command: process.execPath,
          args: [exampleBin],
          env: { ...exampleEnv, NODE_EXTRA_CA_CERTS: caFile },
        },
      },
    ];
    const banner = [
      "lab-sandbox is running. Ctrl-C stops everything.",
      "",
      "MCP endpoints (streamable HTTP):",
      `  example_mcp  ${exampleServer.url}`,
      "",
      "Remote services (emulated, demo data):",
      `  example service  ${example.url}  (API key ${example.apiKey})`,
      `  CA certificate   ${caFile}`,
      "",
      "Try it: npx @modelcontextprotocol/inspector@2.12.0 --cli " +
        `${exampleServer.url} --transport http --method tools/call --tool-name example_search_users --tool-arg query=chen`,
      "",
      ...clientConfigs(servers).flatMap(({ client, where, text }) => [`${client}, in ${where}:`, text, ""]),
    ].join("\n");
    return { servers, banner, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
