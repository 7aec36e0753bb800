// `protocols-mcp login` and `protocols-mcp logout`: the OAuth sign-in from a terminal, with the same
// settings (environment or flags) as the server, and the same code flow and token store as the
// protocols_sign_in tool.
import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { consoleOutput, FORGET_FLAGS, forgetSubjectOf, type Output } from "../../core/start/admin-cli.js";
import { type FlagSpec, parseArguments } from "../../core/start/argv.js";
import { ConfigError, flagsOf, loadConfig, readSettings } from "../../core/start/config.js";
import { coreSettingsFor } from "../../core/start/run.js";
import { removeFile } from "../../core/start/user-config.js";
import {
  openSharedState,
  RedisUnreachableError,
  type StateSettings,
  stateSettingsOf,
} from "../../core/state/open.js";
import type { SharedState } from "../../core/state/shared-state.js";
import { UnconfirmedRemovalError } from "../../core/state/unconfirmed-removal.js";
import { SIGN_IN_TIMEOUT_MS } from "./auth/code-flow.js";
import {
  personDigest,
  protocolsPersonNamesKey,
  SharedTokenStore,
  sharedStateWhere,
} from "./auth/shared-token-store.js";
import { signedInAs, signIn } from "./auth/sign-in.js";
import type { SignInOwner } from "./auth/token-store.js";
import type { ProtocolsClient } from "./client.js";
import type { KeptIn } from "./credential-source.js";
import { createProtocolsClient, protocolsService } from "./index.js";
import {
  baseUrlOf,
  checkProtocolsSettings,
  PROTOCOLS_SETTINGS,
  protocolsConfigOf,
  tokenFileOf,
} from "./settings.js";

export const SUBCOMMANDS_HELP = `
Subcommands:
  protocols-mcp login [--no-browser] [--timeout <seconds>]
      Sign in with the OAuth application (PROTOCOLS_CLIENT_ID, PROTOCOLS_CLIENT_SECRET,
      PROTOCOLS_REDIRECT_URI): prints the sign-in address, opens it in your browser, waits for the
      redirect (5 minutes by default) and stores the tokens (mode 0600) in your config folder
      (lab-mcp/protocols-tokens.json) or PROTOCOLS_TOKEN_FILE; with REDIS_URL, encrypted in the
      shared state of the server's replicas instead.
  protocols-mcp logout
      Deletes the stored tokens (from the shared state with REDIS_URL).
  protocols-mcp forget --subject <sub> [--issuer <issuer>]
      Team mode, for an administrator: deletes one person's own sign-in from the shared state
      (REDIS_URL, MCP_STATE_KEY, PROTOCOLS_BASE_URL, PROTOCOLS_CLIENT_ID). The person is the 'sub' of
      their access tokens at the issuer (default MCP_AUTH_ISSUER).`;

const COMMAND = "protocols-mcp";

/** The flags of `login` beside the settings. */
const LOGIN_FLAGS: FlagSpec[] = [{ name: "--no-browser", boolean: true }, { name: "--timeout" }];

/** --timeout: whole seconds, 1 to 3600; the default sign-in wait when not given. */
function signInTimeoutOf(raw: string | undefined): number {
  if (raw === undefined) return SIGN_IN_TIMEOUT_MS;
  const seconds = Number(raw);
  if (!/^\d+$/.test(raw) || seconds < 1 || seconds > 3600) {
    throw new ConfigError("--timeout must be a whole number of seconds from 1 to 3600");
  }
  return seconds * 1000;
}

/** Runs `login`; returns the exit code: 0 signed in, 1 the sign-in failed, 2 a settings problem. */
export async function runLogin(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  output: Output = consoleOutput,
): Promise<number> {
  const core = coreSettingsFor(protocolsService);
  let values: ReturnType<typeof readSettings<typeof core.shape, typeof PROTOCOLS_SETTINGS.shape>>;
  let stateSettings: StateSettings | undefined;
  let openBrowser: boolean;
  let timeoutMs: number;
  try {
    const { help, given } = parseArguments(argv, [...LOGIN_FLAGS, ...flagsOf(core, PROTOCOLS_SETTINGS)]);
    if (help) {
      output.out(SUBCOMMANDS_HELP.trim());
      return 0;
    }
    const noBrowser = given.get("--no-browser");
    openBrowser = noBrowser === undefined || noBrowser === "false";
    timeoutMs = signInTimeoutOf(given.get("--timeout"));
    values = readSettings(core, PROTOCOLS_SETTINGS, given, env);
    const conflict = checkProtocolsSettings(values);
    if (conflict) throw new ConfigError(conflict);
    if (!protocolsConfigOf(values, env).oauth) {
      throw new ConfigError(
        "login needs your OAuth application: set PROTOCOLS_CLIENT_ID, PROTOCOLS_CLIENT_SECRET and PROTOCOLS_REDIRECT_URI",
      );
    }
    stateSettings = stateSettingsOf(values);
  } catch (error) {
    if (error instanceof ConfigError) return usageError(output, error.message);
    throw error;
  }
  // With REDIS_URL the sign-in is the fleet's: Redis out of reach is said before any browser opens.
  const state = await openStateFor("login", stateSettings, output);
  if (!state) return 1;
  try {
    // The operator's own sign-in, from a terminal: never a person of team mode.
    const client = createProtocolsClient(values, {
      requestTimeoutMs: values.MCP_REQUEST_TIMEOUT * 1000,
      maxResponseBytes: values.MCP_MAX_RESPONSE_BYTES,
      transport: values.MCP_TRANSPORT,
      team: false,
      state,
      stateSettings,
      env,
    });
    return await signInFromTerminal(client, { openBrowser, timeoutMs }, output);
  } finally {
    await state.close();
  }
}

async function signInFromTerminal(
  client: ProtocolsClient,
  { openBrowser, timeoutMs }: { openBrowser: boolean; timeoutMs: number },
  output: Output,
): Promise<number> {
  let stop: (() => void) | undefined;
  const onSignal = () => stop?.();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const signedIn = await signIn(client, {
      timeoutMs,
      onRefused: (reason) => output.err(`${COMMAND} login: ${reason}.`),
      async present(start) {
        const flow = await start();
        stop = () => flow.close();
        const minutes = Math.round(timeoutMs / 60_000);
        output.out(
          "Sign in to the protocol repository: open this address in your browser and approve access:",
        );
        output.out("");
        output.out(`  ${flow.authorizeUrl}`);
        output.out("");
        output.out(
          `Waiting for the browser to come back to ${client.credentials.config.oauth?.redirectUri} ` +
            `(up to ${minutes >= 1 ? `${minutes} min` : `${timeoutMs / 1000} s`}; Ctrl-C to stop)...`,
        );
        if (openBrowser) tryToOpen(flow.authorizeUrl);
        try {
          return await flow.tokens;
        } finally {
          flow.close();
        }
      },
    });
    output.out(`${signedInAs(signedIn)}. ${savedTo(signedIn.keptIn)}`);
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
  let file: string;
  let shared: { settings: StateSettings; owner: SignInOwner } | undefined;
  try {
    // Only where the tokens are matters here, so nothing else is required.
    const core = coreSettingsFor(protocolsService).partial();
    const loaded = loadConfig(core, PROTOCOLS_SETTINGS.partial(), argv, env);
    if (loaded.help) {
      output.out(SUBCOMMANDS_HELP.trim());
      return 0;
    }
    file = tokenFileOf(loaded.values, env);
    // MCP_STATE_PREFIX keeps its default in the partial settings too.
    const { MCP_STATE_PREFIX: prefix = "" } = loaded.values;
    const settings = stateSettingsOf({ ...loaded.values, MCP_STATE_PREFIX: prefix });
    if (settings?.redisUrl) shared = { settings, owner: sharedOwnerOf(loaded.values) };
  } catch (error) {
    if (error instanceof ConfigError) return usageError(output, error.message);
    throw error;
  }
  if (shared) return signOutOfSharedState(shared, output);
  const existed = await fileExists(file);
  await removeFile(file);
  output.out(
    existed ? `Signed out: deleted the stored sign-in ${file}.` : `Not signed in: there is no ${file}.`,
  );
  return 0;
}

/** Runs `forget`: deletes one person's sign-in from the shared state; exit codes as `logout`. */
export async function runForget(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  output: Output = consoleOutput,
): Promise<number> {
  let settings: StateSettings;
  let owner: SignInOwner;
  let subject: string;
  try {
    const core = coreSettingsFor(protocolsService).partial();
    const own = PROTOCOLS_SETTINGS.partial();
    const { help, given } = parseArguments(argv, [...FORGET_FLAGS, ...flagsOf(core, own)]);
    if (help) {
      output.out(SUBCOMMANDS_HELP.trim());
      return 0;
    }
    const values = readSettings(core, own, given, env);
    subject = forgetSubjectOf(given, values.MCP_AUTH_ISSUER);
    const { MCP_STATE_PREFIX: prefix = "" } = values;
    const stated = stateSettingsOf({ ...values, MCP_STATE_PREFIX: prefix });
    if (!stated?.redisUrl) {
      throw new ConfigError(
        "forget needs REDIS_URL and MCP_STATE_KEY: people's sign-ins are kept in the shared state",
      );
    }
    settings = stated;
    owner = sharedOwnerOf(values);
  } catch (error) {
    if (error instanceof ConfigError) return usageError(output, error.message);
    throw error;
  }
  const state = await openStateFor("forget", settings, output);
  if (!state) return 1;
  try {
    const where = sharedStateWhere(settings.redisUrl ?? "", settings.prefix);
    const existed = await new SharedTokenStore(
      state,
      owner,
      where,
      0,
      personDigest(protocolsPersonNamesKey(settings.key), subject),
    ).remove();
    output.out(
      existed
        ? `Forgotten: deleted that person's sign-in from ${where}.`
        : `Nothing to forget: that person has no sign-in in ${where}.`,
    );
    return 0;
  } catch (error) {
    return unconfirmed("forget", error, output);
  } finally {
    await state.close();
  }
}

/** A removal the shared state did not confirm: said, and exit 1; anything else goes on up. */
function unconfirmed(subcommand: "logout" | "forget", error: unknown, output: Output): number {
  if (!(error instanceof UnconfirmedRemovalError)) throw error;
  output.err(`${COMMAND} ${subcommand}: ${error.message} Nothing was deleted.`);
  return 1;
}

/** Whose sign-in `logout` deletes from the shared state: it is kept per repository and application. */
function sharedOwnerOf(values: { PROTOCOLS_BASE_URL?: string; PROTOCOLS_CLIENT_ID?: string }): SignInOwner {
  const { PROTOCOLS_BASE_URL: baseUrl, PROTOCOLS_CLIENT_ID: clientId } = values;
  if (!baseUrl || !clientId) {
    throw new ConfigError(
      "logout with REDIS_URL needs PROTOCOLS_BASE_URL and PROTOCOLS_CLIENT_ID: the shared state keeps one sign-in per repository and application",
    );
  }
  return { baseUrl: baseUrlOf(baseUrl), clientId };
}

async function signOutOfSharedState(
  { settings, owner }: { settings: StateSettings; owner: SignInOwner },
  output: Output,
): Promise<number> {
  const state = await openStateFor("logout", settings, output);
  if (!state) return 1;
  try {
    const where = sharedStateWhere(settings.redisUrl ?? "", settings.prefix);
    const existed = await new SharedTokenStore(state, owner, where, 0).remove();
    output.out(
      existed
        ? `Signed out: deleted the stored sign-in from ${where}.`
        : `Not signed in: there is no sign-in in ${where}.`,
    );
    return 0;
  } catch (error) {
    return unconfirmed("logout", error, output);
  } finally {
    await state.close();
  }
}

/** The shared state the settings name (this process's memory without REDIS_URL); undefined, said in one line, when Redis is out of reach. */
async function openStateFor(
  subcommand: "login" | "logout" | "forget",
  settings: StateSettings | undefined,
  output: Output,
): Promise<SharedState | undefined> {
  const say = (message: string) => output.err(`${COMMAND} ${subcommand}: ${message}`);
  try {
    return await openSharedState(settings, (message) => say(`${message}.`));
  } catch (error) {
    if (!(error instanceof RedisUnreachableError)) throw error;
    const nothing = subcommand === "login" ? "Nothing was signed in." : "Nothing was deleted.";
    say(`${oneLine(capitalized(error.message))} ${nothing}`);
    return undefined;
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
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

/** The last line of a sign-in: where the tokens went (never the tokens). */
function savedTo(keptIn: KeptIn | undefined): string {
  if (keptIn?.kind === "shared_state") return `Tokens stored encrypted in ${keptIn.where}.`;
  return `Tokens saved to ${keptIn?.where ?? "this process's memory"} (readable only by you).`;
}
