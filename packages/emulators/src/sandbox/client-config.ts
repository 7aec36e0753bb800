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

/** JSON as people write it by hand: an object or list whose line fits in 100 columns stays on one line. */
export function pretty(value: unknown, indent = "", prefix = ""): string {
  const line = spaced(value);
  if (value === null || typeof value !== "object" || indent.length + prefix.length + line.length <= 100) {
    return line;
  }
  const inner = `${indent}  `;
  const items = Array.isArray(value)
    ? value.map((item) => inner + pretty(item, inner))
    : Object.entries(value).map(([key, item]) => {
        const label = `${JSON.stringify(key)}: `;
        return inner + label + pretty(item, inner, label);
      });
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return `${open}\n${items.join(",\n")}\n${indent}${close}`;
}

/** One line, with a space after each comma and colon and inside braces. */
function spaced(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(spaced).join(", ")}]`;
  const fields = Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${spaced(item)}`);
  return fields.length === 0 ? "{}" : `{ ${fields.join(", ")} }`;
}
