// Flags and environment -> one validated, typed set of values, checked once at start-up. A problem is
// one line naming the setting, so that a user sees at once what to fix.

import { readFileSync } from "node:fs";
import { z } from "zod";
import { ConfigError, closest } from "../config-error.js";
import { WRITES_TOOLSET } from "../server/toolsets.js";
import { type FlagSpec, parseArguments } from "./argv.js";
import {
  describeSettings,
  type SettingSpec,
  type SettingsObject,
  type SettingsShape,
  setting,
  type ValuesOf,
} from "./setting.js";

export { ConfigError } from "../config-error.js";

/**
 * The MCP_* settings every server takes; MCP_TOOLSETS knows the server's toolsets by name (and `all`,
 * `default`, which the server's default toolsets are), MCP_TOOLS its tools.
 */
export function coreSettings(
  toolsets?: readonly string[],
  tools?: readonly string[],
  defaults?: readonly string[],
) {
  const known = toolsets ? ` Known: ${toolsets.join(", ")}.` : "";
  const byDefault = defaults ? defaults.join(",") : `every toolset but '${WRITES_TOOLSET}'`;
  const writes =
    !toolsets || toolsets.includes(WRITES_TOOLSET)
      ? ` Writes (creating, editing, archiving) are the toolset '${WRITES_TOOLSET}', never in the default: e.g. default,${WRITES_TOOLSET}.`
      : "";
  return z.object({
    MCP_TRANSPORT: setting
      .enum(["stdio", "http"], {
        help: "How clients connect: stdio (a subprocess of the client) or http (streamable HTTP, endpoint /mcp).",
      })
      .default("stdio"),
    MCP_HOST: setting.string({ help: "Address the HTTP transport binds to." }).default("127.0.0.1"),
    MCP_PORT: setting.integer({ min: 0, max: 65535, help: "HTTP port (0: any free)." }).default(3000),
    MCP_HTTP_TOKEN: setting
      .secret({
        help: "When set, every HTTP request must carry 'Authorization: Bearer <token>'. At least 32 characters (e.g. from 'openssl rand -hex 32'); required when MCP_HOST is not a loopback address.",
      })
      .optional(),
    MCP_METRICS_TOKEN: setting
      .secret({
        help: "A second bearer token that GET /metrics accepts besides MCP_HTTP_TOKEN, for a Prometheus scraper that should not hold the MCP one. At least 32 characters. Without either token the MCP port never serves /metrics (see MCP_METRICS_LISTEN).",
      })
      .optional(),
    MCP_METRICS_LISTEN: setting
      .string({
        help: "A loopback host:port (e.g. 127.0.0.1:9464) where a listener of its own serves GET /metrics without a token, to loopback Host names only; never the MCP port, which a reverse proxy may publish.",
      })
      .optional(),
    MCP_LOG_CALLS: setting
      .boolean({
        help: "One JSON line on stderr per tool call (time, server, tool, duration, outcome, error kind, a keyed hash of the caller; never arguments or results). Default: true over HTTP, false over stdio.",
      })
      .optional(),
    MCP_READ_ONLY: setting
      .boolean({ help: "Hide every tool that changes anything (readOnlyHint false)." })
      .default(false),
    MCP_ALLOW_DESTRUCTIVE: setting
      .boolean({
        help: "Offer the tools that may destroy or hide data (destructiveHint true, e.g. archiving); they are absent unless this is set.",
      })
      .default(false),
    MCP_TOOLSETS: setting
      .list({
        choices: toolsets ? [...toolsets, "all", "default"] : undefined,
        help: `Comma-separated toolsets to enable: 'all', or names, where 'default' is the default ones (default: ${byDefault}).${writes}${known}`,
      })
      .optional(),
    MCP_TOOLS: setting
      .list({
        choices: tools,
        help: "Comma-separated tool names to enable besides those of MCP_TOOLSETS (read-only mode and MCP_ALLOW_DESTRUCTIVE still apply).",
      })
      .optional(),
    MCP_SESSION_IDLE_TIMEOUT: setting
      .integer({
        min: 1,
        max: 86_400,
        help: "Seconds after which an HTTP session with no request and no open stream is closed.",
      })
      .default(1800),
    MCP_MAX_SESSIONS: setting
      .integer({
        min: 1,
        max: 100_000,
        help: "Most HTTP sessions held at once; at the cap a new client takes the place of the least recently used idle one, or is refused (HTTP 503) when none is idle.",
      })
      .default(100),
    MCP_REQUEST_TIMEOUT: setting
      .integer({
        min: 1,
        max: 600,
        help: "Seconds a remote request may take, from connecting to the last byte of its answer, before a call fails.",
      })
      .default(30),
    MCP_MAX_RESPONSE_BYTES: setting
      .integer({
        min: 65_536,
        max: 1_073_741_824,
        help: "Largest answer read from the remote service, in bytes after decompression (default 32 MiB); a larger one fails the call.",
      })
      .default(33_554_432),
    MCP_AUTH_ISSUER: setting
      .string({
        help: "Team mode: the OAuth authorization server (its issuer URL, e.g. your company's Keycloak realm, Entra ID tenant, Okta or Auth0) whose access tokens every HTTP request must carry. Needs MCP_AUTH_AUDIENCE; instead of MCP_HTTP_TOKEN.",
      })
      .optional(),
    MCP_AUTH_AUDIENCE: setting
      .string({
        help: "Team mode: this server's public MCP URL (e.g. https://mcp.lab.example/mcp), the audience its access tokens must be issued for.",
      })
      .optional(),
    MCP_AUTH_CLIENT_ID: setting
      .string({
        help: "Team mode: this server's own confidential client at the authorization server (redirect URI <origin of MCP_AUTH_AUDIENCE>/auth/browser/callback). It signs in the browser that opens a key page or a repository sign-in link, which then act only for the person who asked; and it asks about every token (RFC 7662 introspection), so that a revoked one stops at once. Without it no such page opens. Needs MCP_AUTH_CLIENT_SECRET.",
      })
      .optional(),
    MCP_AUTH_CLIENT_SECRET: setting
      .secret({ help: "Team mode: the secret of MCP_AUTH_CLIENT_ID." })
      .optional(),
    REDIS_URL: setting
      .secret({
        flag: "--redis-url",
        help: "Shared state for a fleet of replicas (rate budgets, tokens, cursors), e.g. redis://127.0.0.1:6379 (rediss:// for TLS). Unset: kept in this process. Needs MCP_STATE_KEY.",
      })
      .optional(),
    MCP_STATE_PREFIX: setting
      .string({ help: "Prefix of every key this server writes to Redis; replicas of one server share it." })
      .default("lab-mcp:"),
    MCP_STATE_KEY: setting
      .secret({
        help: "32 random bytes as 64 hex characters (e.g. from 'openssl rand -hex 32') or base64: encrypts the secrets kept in Redis (AES-256-GCM) and signs requestState for every replica alike. Required with REDIS_URL; the same on every replica.",
      })
      .optional(),
  });
}

export type CoreShape = ReturnType<typeof coreSettings>["shape"];
export type CoreValues = ValuesOf<CoreShape>;

/** The flags of the given settings objects, for the argv parser. */
export function flagsOf(...settings: SettingsObject[]): FlagSpec[] {
  return settings
    .flatMap(describeSettings)
    .map((spec) => ({ name: spec.flag, boolean: spec.kind === "boolean" }));
}

/**
 * The values of the core and a server's own settings, from the flags given (which win) and the
 * environment. Misspelt variables with a known prefix, bad values and missing required settings are
 * ConfigErrors, checked in the order the settings are declared.
 */
export function readSettings<Core extends SettingsShape, Own extends SettingsShape>(
  core: SettingsObject<Core>,
  own: SettingsObject<Own>,
  given: ReadonlyMap<string, string>,
  env: NodeJS.ProcessEnv,
): ValuesOf<Core> & ValuesOf<Own> {
  const specs = [...describeSettings(core), ...describeSettings(own)];
  checkForMisspeltVariables(specs, env);
  checkSecretFiles(specs, given, env);
  return { ...parseSettings(core, given, env), ...parseSettings(own, given, env) };
}

export type LoadedConfig<Values> = { help: true } | { help: false; values: Values };

/** Parses argv for the given settings, then reads them; `--help` reads nothing. */
export function loadConfig<Core extends SettingsShape, Own extends SettingsShape>(
  core: SettingsObject<Core>,
  own: SettingsObject<Own>,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): LoadedConfig<ValuesOf<Core> & ValuesOf<Own>> {
  const { help, given } = parseArguments(argv, flagsOf(core, own));
  if (help) return { help };
  return { help, values: readSettings(core, own, given, env) };
}

function parseSettings<Shape extends SettingsShape>(
  settings: SettingsObject<Shape>,
  given: ReadonlyMap<string, string>,
  env: NodeJS.ProcessEnv,
): ValuesOf<Shape> {
  const specs = describeSettings(settings);
  const raw = Object.fromEntries(
    specs.map((spec) => [
      spec.env,
      given.get(spec.flag) ?? nonEmpty(env[spec.env]) ?? secretFromFile(spec, specs, env),
    ]),
  );
  const result = settings.safeParse(raw);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const spec = specs.find((candidate) => candidate.env === issue?.path[0]);
  if (!issue || !spec) throw new ConfigError(`Invalid settings: ${z.prettifyError(result.error)}`);
  if (issue.code === "invalid_type") {
    throw new ConfigError(`Missing setting ${spec.env} (or ${spec.flag}): ${spec.help}`);
  }
  throw new ConfigError(`${spec.env} ${issue.message}`);
}

/**
 * The variable that names a file holding a secret setting's value (`<NAME>_FILE`, as Docker and
 * Kubernetes secrets are mounted), unless the server declares a setting of that name itself (one it
 * reads again on every use, e.g. LABDATA_ID_TOKEN_FILE).
 */
function secretFileVariable(spec: SettingSpec, specs: readonly SettingSpec[]): string | undefined {
  const name = `${spec.env}_FILE`;
  return spec.kind === "secret" && !specs.some((other) => other.env === name) ? name : undefined;
}

/** A secret's value from the file its `<NAME>_FILE` names, read once at start (trailing newline dropped). */
function secretFromFile(
  spec: SettingSpec,
  specs: readonly SettingSpec[],
  env: NodeJS.ProcessEnv,
): string | undefined {
  const variable = secretFileVariable(spec, specs);
  const path = variable ? nonEmpty(env[variable]) : undefined;
  if (!variable || !path) return undefined;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unreadable";
    throw new ConfigError(`${variable} names ${path}, which cannot be read (${code})`);
  }
  const value = text.trim();
  if (!value) throw new ConfigError(`${variable} names ${path}, which is empty`);
  return value;
}

/** Both a secret and its `<NAME>_FILE`: which one was meant is not ours to guess. */
function checkSecretFiles(
  specs: readonly SettingSpec[],
  given: ReadonlyMap<string, string>,
  env: NodeJS.ProcessEnv,
) {
  for (const spec of specs) {
    const variable = secretFileVariable(spec, specs);
    if (!variable || !nonEmpty(env[variable])) continue;
    if (given.has(spec.flag) || nonEmpty(env[spec.env])) {
      throw new ConfigError(`Set ${spec.env} or ${variable}, not both`);
    }
  }
}

/** A variable close to a known name, or any unknown one with a service's own prefix, is an error. */
function checkForMisspeltVariables(specs: SettingSpec[], env: NodeJS.ProcessEnv): void {
  const known = specs.flatMap((spec) => [spec.env, secretFileVariable(spec, specs) ?? []].flat());
  const ownPrefixes = new Set(known.map((name) => name.split("_")[0]).filter((prefix) => prefix !== "MCP"));
  for (const name of Object.keys(env)) {
    if (known.includes(name) || env[name] === undefined) continue;
    const prefix = name.split("_")[0] as string;
    const close = closest(name, known);
    if (close) throw new ConfigError(`Unknown setting ${name}; did you mean ${close}?`);
    if (ownPrefixes.has(prefix)) {
      const ours = known.filter((candidate) => candidate.startsWith(`${prefix}_`));
      throw new ConfigError(`Unknown setting ${name}; the ${prefix}_ settings are ${ours.join(", ")}`);
    }
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** How every secret setting may come from a file instead, for --help and the documentation. */
export const SECRET_FILES_NOTE =
  "Every secret setting may be read from a file instead: <NAME>_FILE=/path/to/file (e.g. MCP_AUTH_CLIENT_SECRET_FILE, a Docker or Kubernetes secret), read once at start; not both.";

/** The --help text: every setting with its flag, default and meaning. */
export function helpText(command: string, summary: string, specs: SettingSpec[]): string {
  const lines = [`${command}: ${summary}`, "", "Settings (environment variable, or the flag beside it):"];
  for (const spec of specs) {
    const extra = [
      spec.required ? "required" : undefined,
      spec.default ? `default ${spec.default}` : undefined,
    ]
      .filter(Boolean)
      .join(", ");
    lines.push(`  ${spec.env.padEnd(24)} ${spec.flag.padEnd(20)} ${spec.help}${extra ? ` (${extra})` : ""}`);
  }
  lines.push("", SECRET_FILES_NOTE);
  return lines.join("\n");
}
