// The sandbox: emulators with demo data and the tool servers on them, on loopback, no account needed.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCertificateAuthority } from "../emulators/common/tls.js";
import { startExampleEmulator } from "../emulators/example/index.js";
import { startIdentityProvider } from "../emulators/idp/index.js";
import { startLabdataEmulator } from "../emulators/labdata/index.js";
import { clientConfigs, type SandboxServer } from "./client-config.js";
import { startToolServer } from "./tool-server-process.js";

const BIN_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "bin");
const OIDC_AUDIENCE = "lab-sandbox";

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
    const labdata = await startLabdataEmulator({ ca });
    stops.push(() => labdata.close());
    const idp = await startIdentityProvider({ ca, clock: labdata.clock });
    stops.push(() => idp.close());
    const demo = labdata.demo;
    if (!demo) throw new Error("the lab data emulator started without its demo data");
    labdata.admin.updateSettings(demo.tenant, {
      oidc: { configurationUrl: idp.configurationUrl, audience: OIDC_AUDIENCE },
    });

    const servers: SandboxServer[] = [];
    const serve = async (key: string, bin: string, port: number, env: Record<string, string>) => {
      const binPath = join(BIN_DIR, bin);
      const server = await startToolServer({ binPath, port, caFile, env });
      stops.push(() => server.stop());
      servers.push({
        key,
        url: server.url,
        stdio: { command: process.execPath, args: [binPath], env: { ...env, NODE_EXTRA_CA_CERTS: caFile } },
      });
      return server.url;
    };
    const labdataUrl = await serve("lab-data", "labdata-mcp.js", options.basePort, {
      LABDATA_BASE_URL: demo.baseUrl,
      LABDATA_API_KEY: demo.user.apiKey,
    });
    const exampleUrl = await serve("lab-example", "example-mcp.js", options.basePort + 1, {
      EXAMPLE_BASE_URL: example.url,
      EXAMPLE_API_KEY: example.apiKey,
    });

    const banner = [
      "lab-sandbox is running. Ctrl-C stops everything.",
      "",
      "MCP endpoints (streamable HTTP):",
      `  labdata_mcp  ${labdataUrl}   signed in as ${demo.user.name} <${demo.user.email}> (API key)`,
      `  example_mcp  ${exampleUrl}`,
      "",
      "Emulated remote services (demo data, nothing leaves this machine):",
      `  lab data platform  ${demo.baseUrl}`,
      `    API key of ${demo.user.email}: ${demo.user.apiKey}`,
      `    OAuth app "${demo.app.name}": client id ${demo.app.clientId}, secret ${demo.app.clientSecret}`,
      `    OpenID provider ${idp.issuer} (audience ${OIDC_AUDIENCE})`,
      `  example service    ${example.url}  (API key ${example.apiKey})`,
      `  CA certificate     ${caFile}`,
      "",
      `Try it: npx @modelcontextprotocol/inspector@2.12.0 --cli ${labdataUrl} --transport http ` +
        "--method tools/call --tool-name labdata_list_dna_sequences --tool-arg limit=5",
      "",
      ...clientConfigs(servers).flatMap(({ client, where, text }) => [`${client}, in ${where}:`, text, ""]),
    ].join("\n");
    return { servers, banner, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
