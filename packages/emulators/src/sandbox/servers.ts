// The tool servers the sandbox runs, one entry each: which bin, which port (after --port), how it
// signs in to its emulator, and who it is signed in as. A new server is one more entry here.
import type { SandboxEmulators } from "./emulators.js";

export interface SandboxServerSpec {
  /** Key under which clients list the server, e.g. "lab-data". */
  key: string;
  /** The name the server gives itself, e.g. "labdata_mcp". */
  serverName: string;
  /** Its file in the product package's dist/bin. */
  bin: string;
  /** Its port is the sandbox's first port plus this. */
  portOffset: number;
  /** Settings that point it at its emulator and sign it in. */
  env(emulators: SandboxEmulators): Record<string, string>;
  /** Who it is signed in as and how, for the banner: "signed in as ...". */
  identity(emulators: SandboxEmulators): string;
}

export const SANDBOX_SERVERS: SandboxServerSpec[] = [
  {
    key: "lab-data",
    serverName: "labdata_mcp",
    bin: "labdata-mcp.js",
    portOffset: 0,
    // No MCP_TOOLSETS: the default surface (every read, no write), what a tenant's install gets.
    env: ({ labdata }) => ({
      LABDATA_BASE_URL: labdata.demo.baseUrl,
      LABDATA_API_KEY: labdata.demo.user.apiKey,
      LABDATA_WAREHOUSE_URL: labdata.warehouseUrl,
    }),
    identity: ({ labdata }) =>
      `signed in as ${labdata.demo.user.name} <${labdata.demo.user.email}> with an API key`,
  },
  {
    key: "lab-protocols",
    serverName: "protocols_mcp",
    bin: "protocols-mcp.js",
    portOffset: 1,
    env: ({ protocols }) => ({
      PROTOCOLS_BASE_URL: protocols.url,
      PROTOCOLS_ACCESS_TOKEN: protocols.demo.clientAccessToken,
    }),
    identity: ({ protocols }) => {
      const { application, users } = protocols.demo;
      const owner = users.find((user) => user.username === application.owner);
      const who = `${owner?.name ?? application.owner} (${application.owner})`;
      return `signed in as ${who} with the client token of "${application.name}"`;
    },
  },
  {
    key: "lab-example",
    serverName: "example_mcp",
    bin: "example-mcp.js",
    portOffset: 2,
    env: ({ example }) => ({ EXAMPLE_BASE_URL: example.url, EXAMPLE_API_KEY: example.apiKey }),
    identity: () => "signed in with the example service's API key",
  },
];

/** How many consecutive ports the sandbox takes from --port. */
export const PORTS_TAKEN = Math.max(...SANDBOX_SERVERS.map((server) => server.portOffset)) + 1;

/** A company proxy's variables, as curl and the tool servers read them (either case). */
const PROXY_VARIABLE = /^(https?_proxy|all_proxy|no_proxy|node_use_env_proxy)$/i;

/** The proxy variables set in `env` (the shell the sandbox runs in), for its banner to name. */
export function shellProxyVariables(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.keys(env).filter((name) => PROXY_VARIABLE.test(name) && env[name]?.trim());
}

/**
 * Settings of our servers that the sandbox must not pass on from the shell it runs in: a real
 * tenant's credentials there would conflict with the demo ones (two sign-in methods is a start-up
 * error), and a company proxy would receive the servers' requests to the emulators, which are on
 * this machine's loopback where the proxy cannot reach. The one kept is where protocols_mcp saves PDFs.
 */
export function isInheritableSetting(name: string): boolean {
  if (name === "PROTOCOLS_DOWNLOAD_DIR") return true;
  if (PROXY_VARIABLE.test(name)) return false;
  return !/^(MCP|LABDATA|PROTOCOLS|EXAMPLE)_/.test(name);
}

/** The banner's line about a proxy in the shell, or nothing when there is none. */
export function proxyNotice(env: NodeJS.ProcessEnv = process.env): string[] {
  const names = shellProxyVariables(env);
  if (names.length === 0) return [];
  return [
    `The shell's proxy settings (${names.join(", ")}) are not passed to these servers: everything here talks over this machine's loopback, direct.`,
  ];
}
