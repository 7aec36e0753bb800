// The sandbox: emulators with demo data and the tool servers on them, on loopback, no account needed.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { clientConfigs, type SandboxServer } from "./client-config.js";
import { OIDC_AUDIENCE, type SandboxEmulators, startEmulators } from "./emulators.js";
import { isPortFree } from "./ports.js";
import { proxyNotice, SANDBOX_SERVERS, type SandboxServerSpec } from "./servers.js";
import { PortInUseError, startToolServer } from "./tool-server-process.js";

/** The tool servers' bins: the built product package this package depends on (an npm workspace). */
const BIN_DIR = join(dirname(createRequire(import.meta.url).resolve("lab-mcp/package.json")), "dist", "bin");

export const INSPECTOR = "@modelcontextprotocol/inspector@2.12.0";

export interface SandboxOptions {
  /** Port of the first tool server; the others follow it (see SANDBOX_SERVERS). 0: any free ports. */
  basePort: number;
  /** More settings of some servers, by server name, e.g. { protocols_mcp: { PROTOCOLS_DOWNLOAD_DIR } }. */
  settings?: Record<string, Record<string, string>>;
  /** Where the tool servers' log lines go (default: this process's stderr). */
  logs?: NodeJS.WritableStream | "ignore";
  /** Told when a tool server exits by itself while the sandbox runs. */
  onServerExit?: (serverName: string, code: number | null, signal: NodeJS.Signals | null) => void;
}

export interface Sandbox {
  servers: Array<SandboxServer & { serverName: string; identity: string }>;
  emulators: SandboxEmulators;
  banner: string;
  stop(): Promise<void>;
}

/** The port a server gets: the first port plus its offset, or 0 (any free port) when the first is 0. */
export function portOf(spec: SandboxServerSpec, basePort: number): number {
  return basePort === 0 ? 0 : basePort + spec.portOffset;
}

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  // Every port first: a taken one fails at once, naming it, before anything starts.
  if (options.basePort !== 0) {
    for (const spec of SANDBOX_SERVERS) {
      const port = portOf(spec, options.basePort);
      if (!(await isPortFree(port))) throw new PortInUseError(port, spec.serverName);
    }
  }

  const emulators = await startEmulators();
  const stops: Array<() => Promise<void>> = [() => emulators.stop()];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    // One after another: the ports are fixed, and a failure names the server it belongs to.
    const servers: Sandbox["servers"] = [];
    for (const spec of SANDBOX_SERVERS) {
      const binPath = join(BIN_DIR, spec.bin);
      const env = { ...spec.env(emulators), ...options.settings?.[spec.serverName] };
      const server = await startToolServer({
        binPath,
        serverName: spec.serverName,
        port: portOf(spec, options.basePort),
        caFile: emulators.caFile,
        env,
        logs: options.logs,
        onUnexpectedExit: (code, signal) => options.onServerExit?.(spec.serverName, code, signal),
      });
      stops.push(() => server.stop());
      servers.push({
        key: spec.key,
        serverName: spec.serverName,
        identity: spec.identity(emulators),
        url: server.url,
        stdio: {
          command: process.execPath,
          args: [binPath],
          env: { ...env, NODE_EXTRA_CA_CERTS: emulators.caFile },
        },
      });
    }
    return { servers, emulators, banner: bannerOf(servers, emulators), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function bannerOf(servers: Sandbox["servers"], emulators: SandboxEmulators): string {
  const { labdata, protocols, example } = emulators;
  const width = Math.max(...servers.map((server) => server.serverName.length));
  const first = servers[0];
  const app = protocols.demo.application;
  return [
    "lab-sandbox is running. Ctrl-C stops everything.",
    "",
    "MCP endpoints (streamable HTTP):",
    ...servers.map((server) => `  ${server.serverName.padEnd(width)}  ${server.url}   ${server.identity}`),
    "",
    ...proxyNotice().flatMap((line) => [line, ""]),
    "Demo identities (emulated services with demo data; nothing leaves this machine; new at every start):",
    `  lab data platform    ${labdata.demo.baseUrl}`,
    `    API key of ${labdata.demo.user.email}: ${labdata.demo.user.apiKey}`,
    `    OAuth app "${labdata.demo.app.name}": client id ${labdata.demo.app.clientId}, secret ${labdata.demo.app.clientSecret}`,
    `    OpenID provider ${labdata.idpIssuer} (audience ${OIDC_AUDIENCE})`,
    `    data warehouse ${labdata.warehouseUrl}  (PostgreSQL, TLS only; logins from POST /api/v2/warehouse-credentials)`,
    `  protocol repository  ${protocols.url}`,
    `    CLIENT_ACCESS_TOKEN of "${app.name}" (owner ${app.owner}): ${protocols.demo.clientAccessToken}`,
    `  example service      ${example.url}  (API key ${example.apiKey})`,
    `  CA certificate       ${emulators.caFile}`,
    "",
    "Try it:",
    first
      ? `  npx ${INSPECTOR} --cli ${first.url} --transport http --method tools/list`
      : "  (no tool server)",
    "  npm run demo      (a scripted tour of both servers by an MCP client, on ports of its own)",
    "",
    ...clientConfigs(servers).flatMap(({ client, where, text }) => [`${client}, in ${where}:`, text, ""]),
    "The Claude Desktop block holds this run's keys and CA file: paste it again after a restart.",
  ].join("\n");
}
