// `protocols-mcp login` and `protocols-mcp logout`: the OAuth sign-in from a terminal, with the same
// settings (environment or flags) as the server, and the same code flow and token store as the
// protocols_sign_in tool.
import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { ConfigError, loadConfig, type SettingSpec } from "../../core/config.js";
import { settingsOf } from "../../core/run.js";
import { removeFile } from "../../core/user-config.js";
import { SIGN_IN_TIMEOUT_MS } from "./auth/code-flow.js";
import { createProtocolsApi, protocolsService } from "./index.js";
import { checkProtocolsSettings, tokenFileOf } from "./settings.js";
import { signedInAs, signIn } from "./sign-in.js";

export const SUBCOMMANDS_HELP = `
Subcommands:
  protocols-mcp login [--no-browser] [--timeout <seconds>]
      Sign in with the OAuth application (PROTOCOLS_CLIENT_ID, PROTOCOLS_CLIENT_SECRET,
      PROTOCOLS_REDIRECT_URI): prints the sign-in address, opens it in your browser, waits for the
      redirect (5 minutes by default) and stores the tokens (mode 0600) in your config folder
      (lab-mcp/protocols-tokens.json) or PROTOCOLS_TOKEN_FILE.
  protocols-mcp logout
      Deletes the stored tokens.`;

interface Output {
  out(line: string): void;
  err(line: string): void;
}

const consoleOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

const COMMAND = "protocols-mcp";

/** Runs `login`; returns the exit code: 0 signed in, 1 the sign-in failed, 2 a settings problem. */
export async function runLogin(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  output: Output = consoleOutput,
): Promise<number> {
  let openBrowser = true;
  let timeoutMs = SIGN_IN_TIMEOUT_MS;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--no-browser") openBrowser = false;
    else if (arg === "--timeout" || arg.startsWith("--timeout=")) {
      const raw = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      const seconds = Number(raw);
      if (!/^\d+$/.test(raw ?? "") || seconds < 1 || seconds > 3600) {
        return usageError(output, "--timeout must be a whole number of seconds from 1 to 3600");
      }
      timeoutMs = seconds * 1000;
    } else if (arg === "--help" || arg === "-h") {
      output.out(SUBCOMMANDS_HELP.trim());
      return 0;
    } else rest.push(arg);
  }

  let api: ReturnType<typeof createProtocolsApi>;
  try {
    const { values } = loadConfig(settingsOf(protocolsService), rest, env);
    const conflict = checkProtocolsSettings(values);
    if (conflict) throw new ConfigError(conflict);
    api = createProtocolsApi(values, (values.MCP_REQUEST_TIMEOUT as number) * 1000, env);
    if (!api.credentials.config.oauth) {
      throw new ConfigError(
        "login needs your OAuth application: set PROTOCOLS_CLIENT_ID, PROTOCOLS_CLIENT_SECRET and PROTOCOLS_REDIRECT_URI",
      );
    }
  } catch (error) {
    if (error instanceof ConfigError) return usageError(output, error.message);
    throw error;
  }

  let stop: (() => void) | undefined;
  const onSignal = () => stop?.();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const signedIn = await signIn(api, {
      timeoutMs,
      onRefused: (reason) => output.err(`${COMMAND} login: ${reason}.`),
      async present(flow) {
        stop = () => flow.close();
        const minutes = Math.round(timeoutMs / 60_000);
        output.out(
          "Sign in to the protocol repository: open this address in your browser and approve access:",
        );
        output.out("");
        output.out(`  ${flow.authorizeUrl}`);
        output.out("");
        output.out(
          `Waiting for the browser to come back to ${api.credentials.config.oauth?.redirectUri} ` +
            `(up to ${minutes >= 1 ? `${minutes} min` : `${timeoutMs / 1000} s`}; Ctrl-C to stop)...`,
        );
        if (openBrowser) tryToOpen(flow.authorizeUrl);
        return flow.tokens;
      },
    });
    output.out(`${signedInAs(signedIn)}. Tokens saved to ${signedIn.tokenFile} (readable only by you).`);
    return 0;
  } catch (error) {
    const message = error instanceof Error && error.name !== "Error" ? error.message : String(error);
    output.err(`${COMMAND} login: ${oneLine(message)} Run '${COMMAND} login' to try again.`);
    return 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** Runs `logout`: deletes the stored tokens. */
export async function runLogout(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  output: Output = consoleOutput,
): Promise<number> {
  // Only where the tokens are matters here, so nothing else is required.
  const specs: SettingSpec[] = settingsOf(protocolsService).map((spec) => ({ ...spec, required: false }));
  let file: string;
  try {
    const { values, help } = loadConfig(specs, argv, env);
    if (help) {
      output.out(SUBCOMMANDS_HELP.trim());
      return 0;
    }
    file = tokenFileOf(values, env);
  } catch (error) {
    if (error instanceof ConfigError) return usageError(output, error.message);
    throw error;
  }
  const existed = await fileExists(file);
  await removeFile(file);
  output.out(
    existed ? `Signed out: deleted the stored sign-in ${file}.` : `Not signed in: there is no ${file}.`,
  );
  return 0;
}

function usageError(output: Output, message: string): number {
  const sentence = /[.?!]$/.test(message) ? message : `${message}.`;
  output.err(`${COMMAND}: ${sentence} Run '${COMMAND} --help' for all settings.`);
  return 2;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return /[.?!)]$/.test(line) ? line : `${line}.`;
}

async function fileExists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** Opens the URL in the user's browser if this system knows how; a failure is not an error. */
function tryToOpen(url: string): void {
  try {
    const child =
      process.platform === "darwin"
        ? spawn("open", [url], { stdio: "ignore", detached: true })
        : process.platform === "win32"
          ? spawn("cmd", ["/c", "start", '""', `"${url}"`], {
              stdio: "ignore",
              detached: true,
              windowsVerbatimArguments: true,
            })
          : spawn("xdg-open", [url], { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // No opener on this system: the printed address is enough.
  }
}
