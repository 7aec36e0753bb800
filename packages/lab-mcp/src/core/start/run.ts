// The start-up of every tool-server bin: settings, service, transport, and a clean stop on signals.
// What only one setting needs (the HTTP transport, team mode's pages, Redis) is loaded with import()
// when that setting asks for it: a stdio server starts sooner and smaller without them.

import { randomBytes } from "node:crypto";
import type { ResourceServerSettings } from "../auth/resource-server.js";
import type { BrowserSignIn } from "../pages/browser-sign-in.js";
import type { ServiceRuntime } from "../runtime.js";
import { createServerFactory } from "../server/factory.js";
import type { ServerOptions } from "../server/options.js";
import { defaultToolsetsOf, selectedToolsets, toolsetNames } from "../server/toolsets.js";
import { MemoryState } from "../state/memory-state.js";
import { openSharedState, type StateSettings, stateSettingsOf } from "../state/open.js";
import { deriveKey } from "../state/secret-box.js";
import type { SharedState } from "../state/shared-state.js";
import { isLoopbackHost, isLoopbackName } from "../transport/loopback.js";
import { type ListenAddress, metricsListenOf } from "../transport/metrics-listener.js";
import type { RunningTransport } from "../transport/running.js";
import { ConfigError, type CoreValues, coreSettings, helpText, loadConfig } from "./config.js";
import type { ServiceDefinition } from "./service.js";
import { describeSettings, type SettingSpec, type SettingsShape } from "./setting.js";
import { useNetworkSettings } from "./use-network.js";
import { PRODUCT_VERSION } from "./version.js";

export interface CoreSettings extends ServerOptions {
  /** MCP_ALLOW_DESTRUCTIVE: whether tools with destructiveHint true are offered. */
  allowDestructive: boolean;
  transport: "stdio" | "http";
  host: string;
  port: number;
  httpToken?: string;
  /** MCP_METRICS_TOKEN: a bearer token GET /metrics accepts besides httpToken. */
  metricsToken?: string;
  /** MCP_METRICS_LISTEN: the loopback address of the /metrics listener without a token. */
  metricsListen?: ListenAddress;
  requestTimeoutMs: number;
  /** The largest answer read from the remote (MCP_MAX_RESPONSE_BYTES). */
  maxResponseBytes: number;
  sessionIdleMs: number;
  /** The most HTTP sessions held at once (MCP_MAX_SESSIONS). */
  maxSessions: number;
  /** REDIS_URL, MCP_STATE_PREFIX, MCP_STATE_KEY: where the shared state is, when not in this process. */
  stateSettings?: StateSettings;
  /** Rate budgets, tokens and cursors: this process's own, or the fleet's in Redis. */
  state: SharedState;
  /** MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE: every HTTP request carries a person's access token. */
  auth?: ResourceServerSettings;
  /** Team mode with MCP_AUTH_CLIENT_ID: who is at a browser that opens one of the server's pages. */
  browserSignIn?: BrowserSignIn;
}

/** The core settings of a service's bin, its toolsets known by name. */
export function coreSettingsFor<S, Shape extends SettingsShape>(definition: ServiceDefinition<S, Shape>) {
  return coreSettings(
    toolsetNames(definition),
    definition.tools.map((tool) => tool.name),
    defaultToolsetsOf(definition),
  );
}

/** Every setting a service's bin takes, as --help shows them: the core ones, then its own. */
export function settingsOf<S, Shape extends SettingsShape>(
  definition: ServiceDefinition<S, Shape>,
): SettingSpec[] {
  return [...describeSettings(coreSettingsFor(definition)), ...describeSettings(definition.settings)];
}

export function coreSettingsOf(values: CoreValues, env: NodeJS.ProcessEnv = {}): CoreSettings {
  const transport = values.MCP_TRANSPORT;
  if (transport === "stdio" && values.MCP_HTTP_TOKEN !== undefined) {
    throw new ConfigError(
      "MCP_HTTP_TOKEN is set but MCP_TRANSPORT is stdio; set MCP_TRANSPORT=http or unset MCP_HTTP_TOKEN",
    );
  }
  if (transport === "stdio" && values.MCP_METRICS_TOKEN !== undefined) {
    throw new ConfigError(
      "MCP_METRICS_TOKEN is set but MCP_TRANSPORT is stdio, which serves no /metrics; set MCP_TRANSPORT=http or unset it",
    );
  }
  if (transport === "stdio" && values.MCP_METRICS_LISTEN !== undefined) {
    throw new ConfigError(
      "MCP_METRICS_LISTEN is set but MCP_TRANSPORT is stdio, which serves no /metrics; set MCP_TRANSPORT=http or unset it",
    );
  }
  const metricsListen =
    values.MCP_METRICS_LISTEN === undefined ? undefined : metricsListenOf(values.MCP_METRICS_LISTEN);
  if (typeof metricsListen === "string") throw new ConfigError(metricsListen);
  const host = values.MCP_HOST;
  const httpToken = values.MCP_HTTP_TOKEN;
  const metricsToken = values.MCP_METRICS_TOKEN;
  const stateSettings = stateSettingsOf(values);
  const auth = authSettingsOf(values, transport);
  if (transport === "http") {
    // A blank MCP_HTTP_TOKEN reads as unset; whoever wrote it meant a token, so it is refused as one.
    const blank = httpToken === undefined && env.MCP_HTTP_TOKEN !== undefined ? "" : undefined;
    const problem = auth ? undefined : httpAccessProblem(host, httpToken ?? blank);
    if (problem) throw new ConfigError(problem);
    if (metricsToken !== undefined && metricsToken.length < MIN_HTTP_TOKEN_LENGTH) {
      throw new ConfigError(
        `MCP_METRICS_TOKEN is too short (${metricsToken.length} characters); use at least ${MIN_HTTP_TOKEN_LENGTH} random characters`,
      );
    }
  }
  return {
    transport,
    host,
    port: values.MCP_PORT,
    httpToken,
    metricsToken,
    metricsListen,
    readOnly: values.MCP_READ_ONLY,
    allowDestructive: values.MCP_ALLOW_DESTRUCTIVE,
    toolsets: values.MCP_TOOLSETS ?? [],
    requestTimeoutMs: values.MCP_REQUEST_TIMEOUT * 1000,
    maxResponseBytes: values.MCP_MAX_RESPONSE_BYTES,
    sessionIdleMs: values.MCP_SESSION_IDLE_TIMEOUT * 1000,
    maxSessions: values.MCP_MAX_SESSIONS,
    isolateClients: transport === "http",
    stateSettings,
    auth,
    requestStateKey: stateSettings?.requestStateKey,
    // Over stdio stderr is the client's log of its server: quiet unless asked for.
    logCalls: values.MCP_LOG_CALLS ?? transport === "http",
    logSubjectKey: stateSettings ? deriveKey(stateSettings.key, "call log subject") : undefined,
    state: new MemoryState(),
  };
}

/** What a service may read of the core settings (the one way they reach it). */
export function serviceRuntimeOf(core: CoreSettings, env: NodeJS.ProcessEnv): ServiceRuntime {
  return {
    requestTimeoutMs: core.requestTimeoutMs,
    maxResponseBytes: core.maxResponseBytes,
    transport: core.transport,
    team: core.auth !== undefined,
    browserSignIn: core.browserSignIn,
    authIssuer: core.auth?.issuer,
    state: core.state,
    stateSettings: core.stateSettings,
    env,
  };
}

/** MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE, checked: both or neither, over HTTP, not with MCP_HTTP_TOKEN. */
function authSettingsOf(values: CoreValues, transport: string): ResourceServerSettings | undefined {
  const { MCP_AUTH_ISSUER: issuer, MCP_AUTH_AUDIENCE: audience } = values;
  if (issuer === undefined && audience === undefined) {
    if (values.MCP_AUTH_CLIENT_ID !== undefined || values.MCP_AUTH_CLIENT_SECRET !== undefined) {
      throw new ConfigError(
        "MCP_AUTH_CLIENT_ID is for team mode: set MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE too",
      );
    }
    return undefined;
  }
  if (issuer === undefined || audience === undefined) {
    throw new ConfigError(
      "MCP_AUTH_ISSUER and MCP_AUTH_AUDIENCE go together: set both for team mode, or neither",
    );
  }
  if (transport !== "http") throw new ConfigError("MCP_AUTH_ISSUER needs MCP_TRANSPORT=http");
  if (values.MCP_HTTP_TOKEN !== undefined) {
    throw new ConfigError(
      "MCP_AUTH_ISSUER and MCP_HTTP_TOKEN are two ways to let clients in: keep MCP_AUTH_ISSUER for a team, MCP_HTTP_TOKEN for one user",
    );
  }
  for (const [name, value] of [
    ["MCP_AUTH_ISSUER", issuer],
    ["MCP_AUTH_AUDIENCE", audience],
  ] as const) {
    if (!isSecureUrl(value)) {
      throw new ConfigError(
        `${name} must be an https:// URL (http:// only on a loopback address), got ${value}`,
      );
    }
  }
  const { MCP_AUTH_CLIENT_ID: clientId, MCP_AUTH_CLIENT_SECRET: clientSecret } = values;
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new ConfigError("MCP_AUTH_CLIENT_ID and MCP_AUTH_CLIENT_SECRET go together");
  }
  const introspection = clientId && clientSecret ? { clientId, clientSecret } : undefined;
  return { issuer, audience, introspection };
}

function isSecureUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackName(url.hostname));
  } catch {
    return false;
  }
}

/** The shortest MCP_HTTP_TOKEN accepted: a guessable token is no lock. */
export const MIN_HTTP_TOKEN_LENGTH = 32;

/** Other machines may reach a non-loopback host: they must present a token, and a real one. */
function httpAccessProblem(host: string, token: string | undefined): string | undefined {
  if (token !== undefined && token.length < MIN_HTTP_TOKEN_LENGTH) {
    return (
      `MCP_HTTP_TOKEN is too short (${token.length} characters); use at least ${MIN_HTTP_TOKEN_LENGTH} ` +
      "random characters, e.g. from 'openssl rand -hex 32'"
    );
  }
  if (token === undefined && !isLoopbackHost(host)) {
    return (
      `MCP_HOST ${host} lets other machines connect, so MCP_HTTP_TOKEN is required (at least ` +
      `${MIN_HTTP_TOKEN_LENGTH} random characters); or bind 127.0.0.1`
    );
  }
  return undefined;
}

/** Loads and checks the settings; a problem is a ConfigError with a one-line message. */
export function loadSettings<S, Shape extends SettingsShape>(
  definition: ServiceDefinition<S, Shape>,
  argv: string[],
  env: NodeJS.ProcessEnv,
) {
  const retired = Object.entries(definition.retiredSettings ?? {}).find(([name]) => env[name]?.trim());
  if (retired) throw new ConfigError(`${retired[0]} is no longer supported: ${retired[1]}`);
  const loaded = loadConfig(coreSettingsFor(definition), definition.settings, argv, env);
  if (loaded.help) return { help: true as const };
  const { values } = loaded;
  const core = {
    ...coreSettingsOf(values, env),
    toolsets: selectedToolsets(definition, values.MCP_TOOLSETS),
    tools: values.MCP_TOOLS ?? [],
  };
  const conflict = definition.checkSettings?.(values);
  if (conflict) throw new ConfigError(conflict);
  return { help: false as const, values, core };
}

/**
 * Loads settings and builds the service on `state` (default: this process's own; a Redis state is
 * opened by the caller, as runServer does, since opening it waits for Redis).
 */
export function prepare<S, Shape extends SettingsShape>(
  definition: ServiceDefinition<S, Shape>,
  argv: string[],
  env: NodeJS.ProcessEnv,
  state?: SharedState,
) {
  const loaded = loadSettings(definition, argv, env);
  if (loaded.help) return loaded;
  const core = state ? { ...loaded.core, state } : loaded.core;
  const service = definition.createService(loaded.values, serviceRuntimeOf(core, env));
  return { help: false as const, core, service };
}

export interface BinOptions {
  /** First words that run something else than the server (`protocols-mcp login`): the rest of argv -> exit code. */
  subcommands?: Record<string, (argv: string[]) => Promise<number>>;
  /** Appended to --help, e.g. the subcommands. */
  helpFooter?: string;
}

/** Main of a tool-server bin. Exit code 2 and one stderr line for a settings problem. */
export async function runServer<S, Shape extends SettingsShape>(
  definition: ServiceDefinition<S, Shape>,
  command: string,
  options: BinOptions = {},
): Promise<void> {
  const argv = process.argv.slice(2);
  const [first = "", ...rest] = argv;
  if (first === "--version" || first === "-v") {
    process.stdout.write(`${command} ${PRODUCT_VERSION}\n`);
    return;
  }
  const network = await useNetworkSettings(command);
  if (network !== 0) process.exit(network);
  const subcommand =
    options.subcommands && Object.hasOwn(options.subcommands, first) ? options.subcommands[first] : undefined;
  if (subcommand) return exitWhenFlushed(await subcommand(rest));

  let loaded: ReturnType<typeof loadSettings<S, Shape>>;
  try {
    loaded = loadSettings(definition, argv, process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const sentence = /[.?!]$/.test(error.message) ? error.message : `${error.message}.`;
    process.stderr.write(`${command}: ${sentence} Run '${command} --help' for all settings.\n`);
    process.exit(2);
  }
  if (loaded.help) {
    process.stdout.write(`${helpText(command, definition.instructions, settingsOf(definition))}\n`);
    if (options.helpFooter) process.stdout.write(`${options.helpFooter}\n`);
    return;
  }
  let core: CoreSettings;
  try {
    core = { ...loaded.core, state: await openSharedState(loaded.core.stateSettings, warnLine(command)) };
  } catch (error) {
    process.stderr.write(`${command}: ${(error as Error).message}.\n`);
    process.exit(2);
  }
  // Team mode: a person's browser is not on this machine, so their secret pages are on the public URL,
  // and the browser signs in there (the server's own client) before a page acts for anyone.
  const browserSignIn = await browserSignInOf(core);
  const secretPages = core.auth
    ? new (await import("../pages/public-secret-page.js")).PublicSecretPages(
        core.state,
        new URL(core.auth.audience).origin,
        browserSignIn,
      )
    : undefined;
  core = { ...core, secretPages, browserSignIn };
  const service = definition.createService(loaded.values, serviceRuntimeOf(core, process.env));
  const build = createServerFactory(definition, service, core);

  let running: RunningTransport;
  if (core.transport === "http") {
    const { serveHttp } = await import("../transport/http.js");
    try {
      running = await serveHttp(build, {
        host: core.host,
        port: core.port,
        token: core.httpToken,
        metricsToken: core.metricsToken,
        metricsListen: core.metricsListen,
        sessionIdleMs: core.sessionIdleMs,
        maxSessions: core.maxSessions,
        // Ready while the shared state answers (always, in memory).
        readiness: () => core.state.health(),
        auth: core.auth,
        routes: [
          ...(definition.httpRoutes?.(service) ?? []),
          ...(secretPages ? [secretPages.route()] : []),
          ...(browserSignIn?.routes() ?? []),
        ],
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === "EADDRINUSE"
          ? core.metricsListen
            ? `port ${core.port} or ${core.metricsListen.port} (MCP_METRICS_LISTEN) is in use; choose another`
            : `port ${core.port} is in use; choose another with MCP_PORT`
          : String(code ?? error);
      process.stderr.write(`${command}: cannot listen on ${core.host}:${core.port}: ${why}.\n`);
      process.exit(2);
    }
    process.stderr.write(`${definition.serverName} listening on ${running.url}\n`);
  } else {
    const { serveStdio } = await import("../transport/stdio.js");
    running = await serveStdio(build);
    // The client closing our stdin is the end of the session.
    process.stdin.on("end", () => void stop());
  }

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await running.close().catch(() => undefined);
    await core.state.close().catch(() => undefined);
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
  stopWithParent(stop);
}

/**
 * Team mode with the server's own client (MCP_AUTH_CLIENT_ID): who is at a browser. Its cookies are
 * sealed with a key from MCP_STATE_KEY, the same on every replica; without one (a single process) a
 * random key does.
 */
async function browserSignInOf(core: CoreSettings): Promise<BrowserSignIn | undefined> {
  const client = core.auth?.introspection;
  if (!core.auth || !client) return undefined;
  const key = core.stateSettings ? deriveKey(core.stateSettings.key, "browser sign-in") : randomBytes(32);
  const { BrowserSignIn } = await import("../pages/browser-sign-in.js"); // jose and cookie: team mode only
  return new BrowserSignIn({ ...core.auth, ...client }, core.state, key);
}

/** One line on stderr, prefixed with the command, for what an operator should know (never a secret). */
function warnLine(command: string): (message: string) => void {
  return (message) => process.stderr.write(`${command}: ${message}\n`);
}

/** Exits once what was written has left, even when stdout and stderr are pipes. */
function exitWhenFlushed(code: number): void {
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
}

/**
 * A parent that started us with an IPC channel (lab-sandbox does) owns our life: when the channel
 * closes, the parent is gone, even killed with SIGKILL, and we must not hold our port for nobody. The
 * channel does not keep us alive by itself.
 */
function stopWithParent(stop: () => Promise<void>): void {
  if (!process.channel) return;
  process.channel.unref();
  process.once("disconnect", () => void stop());
}
