// Flags and environment -> one validated set of values, checked once at start-up. A problem is one
// line naming the setting, so that a user sees at once what to fix.

export type SettingKind =
  | "string"
  | "secret"
  | "https-url"
  | "integer"
  | "boolean"
  | "enum"
  | "list"
  | "file";

export interface SettingSpec {
  /** Environment variable, e.g. "EXAMPLE_BASE_URL". Also the key of the loaded value. */
  env: string;
  /** Command-line flag; by default the env name without its first segment, e.g. "--base-url". */
  flag?: string;
  description: string;
  kind: SettingKind;
  required?: boolean;
  /** The raw default, parsed like a given value. */
  default?: string;
  choices?: readonly string[];
  min?: number;
  max?: number;
}

export type SettingValues = Record<string, unknown>;

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export const CORE_SETTINGS: SettingSpec[] = [
  {
    env: "MCP_TRANSPORT",
    kind: "enum",
    choices: ["stdio", "http"],
    default: "stdio",
    description: "How clients connect: stdio (a subprocess of the client) or http (streamable HTTP).",
  },
  {
    env: "MCP_HOST",
    kind: "string",
    default: "127.0.0.1",
    description: "Address the HTTP transport binds to.",
  },
  {
    env: "MCP_PORT",
    kind: "integer",
    min: 0,
    max: 65535,
    default: "3000",
    description: "HTTP port (0: any free).",
  },
  {
    env: "MCP_HTTP_TOKEN",
    kind: "secret",
    description:
      "When set, every HTTP request must carry 'Authorization: Bearer <token>'. At least 32 characters; required when MCP_HOST is not a loopback address.",
  },
  {
    env: "MCP_READ_ONLY",
    kind: "boolean",
    default: "false",
    description: "Hide every tool that changes anything (readOnlyHint false).",
  },
  { env: "MCP_TOOLSETS", kind: "list", description: "Comma-separated toolsets to enable (default: all)." },
  {
    env: "MCP_SESSION_IDLE_TIMEOUT",
    kind: "integer",
    min: 1,
    max: 86_400,
    default: "1800",
    description: "Seconds after which an HTTP session with no request and no open stream is closed.",
  },
  {
    env: "MCP_MAX_SESSIONS",
    kind: "integer",
    min: 1,
    max: 100_000,
    default: "100",
    description:
      "Most HTTP sessions held at once; at the cap a new client takes the place of the least recently used idle one, or is refused when none is idle.",
  },
  {
    env: "MCP_REQUEST_TIMEOUT",
    kind: "integer",
    min: 1,
    max: 600,
    default: "30",
    description:
      "Seconds a remote request may take, from connecting to the last byte of its answer, before a call fails.",
  },
  {
    env: "MCP_MAX_RESPONSE_BYTES",
    kind: "integer",
    min: 65_536,
    max: 1_073_741_824,
    default: "33554432",
    description:
      "Largest answer read from the remote service, in bytes after decompression (default 32 MiB); a larger one fails the call.",
  },
];

export function flagOf(spec: SettingSpec): string {
  return spec.flag ?? `--${spec.env.split("_").slice(1).join("-").toLowerCase()}`;
}

export interface LoadedConfig {
  values: SettingValues;
  help: boolean;
}

/**
 * Reads flags (which win) and environment for the given settings. Unknown flags, misspelt variables
 * with a known prefix, bad values and missing required settings are ConfigErrors.
 */
export function loadConfig(specs: SettingSpec[], argv: string[], env: NodeJS.ProcessEnv): LoadedConfig {
  const byFlag = new Map(specs.map((spec) => [flagOf(spec), spec]));
  const raw = new Map<string, string>();
  let help = false;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    const [flag, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg];
    // A stray word may be half of an unquoted secret: never print it back.
    if (!arg.startsWith("-"))
      throw new ConfigError("Unexpected argument (not shown); settings are --flag value pairs");
    const spec = byFlag.get(flag as string);
    if (!spec) throw new ConfigError(`Unknown option ${flag}${suggest(flag as string, [...byFlag.keys()])}`);
    let value = inline;
    if (value === undefined) {
      const next = argv[i + 1];
      if (spec.kind === "boolean" && (next === undefined || next.startsWith("--"))) value = "true";
      else if (next === undefined) throw new ConfigError(`Option ${flag} needs a value`);
      else {
        value = next;
        i++;
      }
    }
    raw.set(spec.env, value);
  }
  if (help) return { values: {}, help };

  checkForMisspeltVariables(specs, env);
  const values: SettingValues = {};
  for (const spec of specs) {
    const given = raw.get(spec.env) ?? nonEmpty(env[spec.env]);
    const value = given ?? spec.default;
    if (value === undefined) {
      if (spec.required) {
        throw new ConfigError(`Missing setting ${spec.env} (or ${flagOf(spec)}): ${spec.description}`);
      }
      continue;
    }
    values[spec.env] = parseValue(spec, value);
  }
  return { values, help };
}

function parseValue(spec: SettingSpec, value: string): unknown {
  const name = spec.env;
  switch (spec.kind) {
    case "integer": {
      const number = Number(value);
      const inRange =
        Number.isInteger(number) && number >= (spec.min ?? 0) && number <= (spec.max ?? Infinity);
      if (!/^\s*\d+\s*$/.test(value) || !inRange) {
        const range =
          spec.max === undefined ? `at least ${spec.min ?? 0}` : `${spec.min ?? 0} to ${spec.max}`;
        throw new ConfigError(`${name} must be a whole number, ${range}; got "${value}"`);
      }
      return number;
    }
    case "boolean": {
      const normalised = value.trim().toLowerCase();
      if (["1", "true", "yes", "on"].includes(normalised)) return true;
      if (["0", "false", "no", "off"].includes(normalised)) return false;
      throw new ConfigError(`${name} must be true or false; got "${value}"`);
    }
    case "enum": {
      const normalised = value.trim().toLowerCase();
      if (!spec.choices?.includes(normalised)) {
        throw new ConfigError(`${name} must be one of ${spec.choices?.join(", ")}; got "${value}"`);
      }
      return normalised;
    }
    case "list": {
      const items = value
        .split(",")
        .map((item) => item.trim())
        .filter(Boolean);
      const unknown = spec.choices ? items.filter((item) => !spec.choices?.includes(item)) : [];
      if (unknown.length > 0) {
        throw new ConfigError(
          `${name} has unknown item ${unknown.join(", ")}; known: ${spec.choices?.join(", ")}`,
        );
      }
      return items;
    }
    case "https-url": {
      let url: URL;
      try {
        url = new URL(value.trim());
      } catch {
        throw new ConfigError(`${name} is not a valid URL`);
      }
      if (url.protocol !== "https:") {
        throw new ConfigError(`${name} must be an https:// URL (plain ${url.protocol}// is refused)`);
      }
      if (url.username || url.password) throw new ConfigError(`${name} must not contain credentials`);
      return url.href;
    }
    case "secret":
    case "string":
    case "file":
      return value.trim();
  }
}

/** A variable close to a known name, or any unknown one with a service's own prefix, is an error. */
function checkForMisspeltVariables(specs: SettingSpec[], env: NodeJS.ProcessEnv): void {
  const known = specs.map((spec) => spec.env);
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

function suggest(given: string, candidates: string[]): string {
  const close = closest(given, candidates);
  return close ? `; did you mean ${close}?` : "";
}

function closest(given: string, candidates: string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(given.toUpperCase(), candidate.toUpperCase());
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

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
    lines.push(
      `  ${spec.env.padEnd(24)} ${flagOf(spec).padEnd(20)} ${spec.description}${extra ? ` (${extra})` : ""}`,
    );
  }
  return lines.join("\n");
}
