// Ready-to-paste client configuration for a running sandbox server.

export interface SandboxServer {
  /** Key under which clients list the server, e.g. "lab-example". */
  key: string;
  /** Streamable HTTP endpoint. */
  url: string;
  /** How to start the same server over stdio against the sandbox's emulator. */
  stdio: { command: string; args: string[]; env: Record<string, string> };
}

export function clientConfigs(
  servers: SandboxServer[],
): Array<{ client: string; where: string; text: string }> {
  const entries = <T>(make: (server: SandboxServer) => T) =>
    Object.fromEntries(servers.map((server) => [server.key, make(server)]));
  return [
    {
      client: "Claude Desktop (stdio)",
      where: "claude_desktop_config.json",
      text: pretty({ mcpServers: entries((server) => server.stdio) }),
    },
    {
      client: "VS Code (HTTP)",
      where: ".vscode/mcp.json",
      text: pretty({ servers: entries((server) => ({ type: "http", url: server.url })) }),
    },
    {
      client: "Cursor (HTTP)",
      where: "~/.cursor/mcp.json",
      text: pretty({ mcpServers: entries((server) => ({ url: server.url })) }),
    },
  ];
}

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
