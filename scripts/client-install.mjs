// The one table every client's install line comes from: for each tool server, the command a client
// starts (the published package through npx) and the settings the user gives it. scripts/readme-tables.mjs
// renders the README's install section from it (Claude Code's `claude mcp add`, the VS Code and Cursor
// install links), and test/packaging/client-install.test.ts decodes each line and starts its command,
// so that no line can drift from the others or from what the servers take.

/** The package a client runs, as published on npm, and the runner that fetches it. */
export const PACKAGE = "lab-mcp";
export const RUNNER = { command: "npx", args: ["-y", "-p", PACKAGE] };

/** Each server a user installs: its name in the client, its bin, what it is for, and its settings. */
export const INSTALLABLE = [
  {
    name: "lab-data",
    bin: "labdata-mcp",
    title: "Lab data platform (Benchling)",
    settings: [
      {
        env: "LABDATA_BASE_URL",
        example: "https://acme.benchling.com",
        description: "Your tenant's address",
      },
      { env: "LABDATA_API_KEY", example: "sk_...", description: "Your API key", secret: true },
    ],
  },
  {
    name: "lab-protocols",
    bin: "protocols-mcp",
    title: "Protocol repository (protocols.io)",
    settings: [
      {
        env: "PROTOCOLS_BASE_URL",
        example: "https://www.protocols.io",
        description: "The repository's address",
      },
      {
        env: "PROTOCOLS_ACCESS_TOKEN",
        example: "...",
        description: "Your client access token",
        secret: true,
      },
    ],
  },
];

/** The command and arguments a client starts for `server`. */
export function commandOf(server) {
  return { command: RUNNER.command, args: [...RUNNER.args, server.bin] };
}

/** Claude Code: one `claude mcp add` line (options, then the name, then `--` and the command). */
export function claudeCodeLine(server) {
  const { command, args } = commandOf(server);
  const env = server.settings.map((setting) => `--env ${setting.env}=${setting.example}`).join(" ");
  return `claude mcp add --transport stdio ${env} ${server.name} -- ${command} ${args.join(" ")}`;
}

/** The input id VS Code asks the user for, for one setting. */
const inputId = (setting) => setting.env.toLowerCase();

/**
 * VS Code: the `vscode:mcp/install?<JSON>` link, each setting asked for when installing (an input,
 * a password for a secret). GitHub does not render vscode: links, so the README links through VS Code's
 * own redirect page.
 */
export function vscodeLink(server) {
  const { command, args } = commandOf(server);
  const config = {
    name: server.name,
    type: "stdio",
    command,
    args,
    env: Object.fromEntries(server.settings.map((setting) => [setting.env, `\${input:${inputId(setting)}}`])),
    inputs: server.settings.map((setting) => ({
      id: inputId(setting),
      type: "promptString",
      description: `${setting.description} (${setting.env})`,
      ...(setting.secret ? { password: true } : {}),
    })),
  };
  return `vscode:mcp/install?${encodeURIComponent(JSON.stringify(config))}`;
}

export const vscodeRedirect = (link) =>
  `https://insiders.vscode.dev/redirect?url=${encodeURIComponent(link)}`;

/** Cursor: the deeplink with the server's name and its configuration as base64 JSON. */
export function cursorLink(server) {
  const { command, args } = commandOf(server);
  const config = {
    command,
    args,
    env: Object.fromEntries(server.settings.map((setting) => [setting.env, setting.example])),
  };
  const encoded = Buffer.from(JSON.stringify(config)).toString("base64");
  return `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(server.name)}&config=${encodeURIComponent(encoded)}`;
}

/** The README's install section: one row per server, one column per client. */
export function installTable() {
  const rows = INSTALLABLE.map((server) => {
    const claude = `\`${claudeCodeLine(server)}\``;
    const vscode = `[Install in VS Code](${vscodeRedirect(vscodeLink(server))})`;
    const cursor = `[Install in Cursor](${cursorLink(server)})`;
    return `| ${server.title} | ${claude} | ${vscode} | ${cursor} |`;
  });
  return ["| server | Claude Code | VS Code | Cursor |", "|---|---|---|---|", ...rows].join("\n");
}
