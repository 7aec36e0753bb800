// The start-up of every tool-server bin: settings, service, transport, and a clean stop on signals.
import {
  CORE_SETTINGS,
  ConfigError,
  helpText,
  loadConfig,
  type SettingSpec,
  type SettingValues,
} from "./config.js";
import { createMcpServer, type ServerOptions, type ServiceDefinition } from "./server.js";
import { type RunningTransport, serveHttp, serveStdio } from "./transport.js";

export interface CoreSettings extends ServerOptions {
  transport: "stdio" | "http";
  host: string;
  port: number;
  httpToken?: string;
  requestTimeoutMs: number;
  /** The largest answer read from the remote (MCP_MAX_RESPONSE_BYTES). */
  maxResponseBytes: number;
  sessionIdleMs: number;
}

/** Every setting a service's bin takes: the core ones (toolsets known by name) and its own. */
export function settingsOf<S>(definition: ServiceDefinition<S>): SettingSpec[] {
  const toolsets = Object.keys(definition.toolsets ?? { [definition.id]: "" });
  const core = CORE_SETTINGS.map((spec) =>
    spec.env === "MCP_TOOLSETS"
      ? { ...spec, choices: toolsets, description: `${spec.description} Known: ${toolsets.join(", ")}.` }
      : spec,
  );
  return [...core, ...definition.settings];
}

export function coreSettingsOf(values: SettingValues): CoreSettings {
  const transport = values.MCP_TRANSPORT as "stdio" | "http";
  if (transport === "stdio") {
    for (const name of ["MCP_HTTP_TOKEN"]) {
      if (values[name] !== undefined)
        throw new ConfigError(
          `${name} is set but MCP_TRANSPORT is stdio; set MCP_TRANSPORT=http or unset ${name}`,
        );
    }
  }
  return {
    transport,
    host: values.MCP_HOST as string,
    port: values.MCP_PORT as number,
    httpToken: values.MCP_HTTP_TOKEN as string | undefined,
    readOnly: values.MCP_READ_ONLY as boolean,
    toolsets: (values.MCP_TOOLSETS as string[] | undefined) ?? [],
    requestTimeoutMs: (values.MCP_REQUEST_TIMEOUT as number) * 1000,
    maxResponseBytes: values.MCP_MAX_RESPONSE_BYTES as number,
    sessionIdleMs: (values.MCP_SESSION_IDLE_TIMEOUT as number) * 1000,
  };
}

/** Loads settings and builds the service; a problem is a ConfigError with a one-line message. */
export function prepare<S>(definition: ServiceDefinition<S>, argv: string[], env: NodeJS.ProcessEnv) {
  const { values, help } = loadConfig(settingsOf(definition), argv, env);
  if (help) return { help: true as const };
  const core = coreSettingsOf(values);
  const conflict = definition.checkSettings?.(values);
  if (conflict) throw new ConfigError(conflict);
  const service = definition.createService(values, core);
  return { help: false as const, core, service };
}

/** Main of a tool-server bin. Exit code 2 and one stderr line for a settings problem. */
export async function runServer<S>(definition: ServiceDefinition<S>, command: string): Promise<void> {
  let prepared: ReturnType<typeof prepare<S>>;
  try {
    prepared = prepare(definition, process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const sentence = /[.?!]$/.test(error.message) ? error.message : `${error.message}.`;
    process.stderr.write(`${command}: ${sentence} Run '${command} --help' for all settings.\n`);
    process.exit(2);
  }
  if (prepared.help) {
    process.stdout.write(`${helpText(command, definition.instructions, settingsOf(definition))}\n`);
    return;
  }
  const { core, service } = prepared;
  const build = () => createMcpServer(definition, service, core);

  let running: RunningTransport;
  if (core.transport === "http") {
    try {
      running = await serveHttp(build, {
        host: core.host,
        port: core.port,
        token: core.httpToken,
        sessionIdleMs: core.sessionIdleMs,
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const why =
        code === "EADDRINUSE"
          ? `port ${core.port} is in use; choose another with MCP_PORT`
          : String(code ?? error);
      process.stderr.write(`${command}: cannot listen on ${core.host}:${core.port}: ${why}.\n`);
      process.exit(2);
    }
    process.stderr.write(`${definition.serverName} listening on ${running.url}\n`);
  } else {
    running = await serveStdio(build());
    // The client closing our stdin is the end of the session.
    process.stdin.on("end", () => void stop());
  }

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await running.close().catch(() => undefined);
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
}
