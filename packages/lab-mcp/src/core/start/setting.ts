// The builders a server declares its settings with: each is a zod schema from the raw text of an
// environment variable or flag to a typed value, registered with what --help and the README show.
// A server's settings are one z.object keyed by environment variable, so that the values' type is
// inferred from the declaration and a misspelt setting name does not compile:
//
//   z.object({
//     LABDATA_BASE_URL: setting.httpsUrl({ help: "..." }),            // required: string
//     LABDATA_API_KEY: setting.secret({ help: "..." }).optional(),      // string | undefined
//     MCP_PORT: setting.integer({ min: 0, max: 65535, help: "..." }).default(3000),
//   })
import { z } from "zod";
import { type ApiRoot, tenantAddress } from "../http/base-url.js";

export type SettingKind =
  | "string"
  | "secret"
  | "https-url"
  | "postgres-url"
  | "integer"
  | "boolean"
  | "enum"
  | "list"
  | "file";

/** What a builder registers about its setting, beside the parsing the schema does. */
export interface SettingMeta {
  kind: SettingKind;
  /** One line for --help and the README. */
  help: string;
  /** Command-line flag; by default the env name without its first segment, e.g. "--base-url". */
  flag?: string;
  choices?: readonly string[];
}

/** One setting as --help and the README show it. */
export interface SettingSpec extends SettingMeta {
  /** Environment variable, e.g. "EXAMPLE_BASE_URL": the key of the setting in its z.object. */
  env: string;
  flag: string;
  required: boolean;
  /** The default as text, when the schema has one. */
  default?: string;
}

/** The schema of one setting: raw text (undefined when not given) to a value. */
export type SettingSchema = z.ZodType<unknown, string | undefined>;
export type SettingsShape = Record<string, SettingSchema>;
export type SettingsObject<Shape extends SettingsShape = SettingsShape> = z.ZodObject<Shape>;
/** The values a settings object yields, e.g. `{ LABDATA_BASE_URL: string; LABDATA_API_KEY?: string }`. */
export type ValuesOf<Shape extends SettingsShape> = z.output<z.ZodObject<Shape>>;

const settingRegistry = z.registry<SettingMeta>();

interface Common {
  help: string;
  flag?: string;
}

/** A raw value the setting refuses; the message follows the setting's name, e.g. "must be ...". */
function refuse(ctx: z.RefinementCtx<string>, raw: string, message: string): never {
  ctx.issues.push({ code: "custom", message, input: raw });
  return z.NEVER;
}

function define<T>(
  kind: SettingKind,
  options: Common & { choices?: readonly string[] },
  parse: (raw: string, ctx: z.RefinementCtx<string>) => T,
): z.ZodType<T, string> {
  return z
    .string()
    .transform(parse)
    .register(settingRegistry, { kind, ...options });
}

const trimmed = (raw: string) => raw.trim();

function integer(options: Common & { min: number; max?: number }) {
  const { min, max } = options;
  return define("integer", options, (raw, ctx) => {
    const number = Number(raw);
    const inRange = Number.isInteger(number) && number >= min && number <= (max ?? Infinity);
    if (!/^\s*\d+\s*$/.test(raw) || !inRange) {
      const range = max === undefined ? `at least ${min}` : `${min} to ${max}`;
      return refuse(ctx, raw, `must be a whole number, ${range}; got "${raw}"`);
    }
    return number;
  });
}

function boolean(options: Common) {
  return define("boolean", options, (raw, ctx) => {
    const normalised = raw.trim().toLowerCase();
    if (["1", "true", "yes", "on"].includes(normalised)) return true;
    if (["0", "false", "no", "off"].includes(normalised)) return false;
    return refuse(ctx, raw, `must be true or false; got "${raw}"`);
  });
}

function oneOf<const Choice extends string>(choices: readonly Choice[], options: Common) {
  const isChoice = (value: string): value is Choice => choices.some((choice) => choice === value);
  return define("enum", { ...options, choices }, (raw, ctx) => {
    const normalised = raw.trim().toLowerCase();
    if (isChoice(normalised)) return normalised;
    return refuse(ctx, raw, `must be one of ${choices.join(", ")}; got "${raw}"`);
  });
}

/** Comma-separated items; with `choices`, only those. */
function list(options: Common & { choices?: readonly string[] }) {
  const { choices } = options;
  return define("list", options, (raw, ctx) => {
    const items = raw
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean);
    const unknown = choices ? items.filter((item) => !choices.includes(item)) : [];
    if (unknown.length > 0) {
      return refuse(ctx, raw, `has unknown item ${unknown.join(", ")}; known: ${choices?.join(", ")}`);
    }
    return items;
  });
}

/** An https:// URL without credentials, normalised. Never quoted back: it may hold a token. */
function httpsUrl(options: Common & { apiRoot?: ApiRoot }) {
  const { apiRoot, ...meta } = options;
  return define("https-url", meta, (raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      return refuse(ctx, raw, "is not a valid URL");
    }
    if (url.protocol !== "https:") {
      return refuse(ctx, raw, `must be an https:// URL (plain ${url.protocol}// is refused)`);
    }
    if (url.username || url.password) return refuse(ctx, raw, "must not contain credentials");
    if (!apiRoot) return url.href;
    const form = tenantAddress(url, apiRoot);
    return form.ok ? form.url : refuse(ctx, raw, form.problem);
  });
}

/**
 * A PostgreSQL address, postgres://host[:port]/database, normalised to that form (port 5432 by
 * default). No user or password: those are minted per person. Connections always verify TLS, so an
 * `sslmode` that turns that off is refused rather than ignored.
 */
function postgresUrl(options: Common) {
  return define("postgres-url", options, (raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      return refuse(ctx, raw, "is not a valid URL; the form is postgres://host:5432/database");
    }
    if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
      return refuse(ctx, raw, "must be a postgres:// URL, e.g. postgres://warehouse.example:5432/warehouse");
    }
    if (url.username || url.password) {
      return refuse(ctx, raw, "must not contain a user or password (they are minted for each person)");
    }
    const database = decodeURIComponent(url.pathname.replace(/^\/+/, ""));
    if (!url.hostname || !database || database.includes("/")) {
      return refuse(
        ctx,
        raw,
        "must name a host and a database, e.g. postgres://warehouse.example:5432/warehouse",
      );
    }
    const sslmode = url.searchParams.get("sslmode");
    if (sslmode && sslmode !== "verify-full") {
      return refuse(
        ctx,
        raw,
        "must not lower TLS (sslmode): connections always verify the server's certificate",
      );
    }
    return `postgres://${url.port ? url.host : `${url.host}:5432`}/${encodeURIComponent(database)}`;
  });
}

export const setting = {
  string: (options: Common) => define("string", options, trimmed),
  /** Never shown back, in errors or anywhere else. */
  secret: (options: Common) => define("secret", options, trimmed),
  /** A path. */
  file: (options: Common) => define("file", options, trimmed),
  httpsUrl,
  postgresUrl,
  integer,
  boolean,
  enum: oneOf,
  list,
};

/** The flag of a setting: its own, or the env name without its first segment ("--base-url"). */
function defaultFlag(env: string): string {
  return `--${env.split("_").slice(1).join("-").toLowerCase()}`;
}

/**
 * What a settings object declares, in order: the meta of each builder, and what the wrappers around
 * it say (`.optional()`, `.default(value)`; none is a required setting).
 */
export function describeSettings(settings: SettingsObject): SettingSpec[] {
  return Object.entries(settings.shape).map(([env, schema]) => {
    let inner: z.core.$ZodType = schema;
    let required = true;
    let shownDefault: string | undefined;
    for (;;) {
      if (inner instanceof z.ZodOptional) {
        required = false;
        inner = inner.unwrap();
      } else if (inner instanceof z.ZodDefault) {
        required = false;
        shownDefault = textOf(inner.def.defaultValue);
        inner = inner.unwrap();
      } else break;
    }
    const meta = settingRegistry.get(inner);
    if (!meta) throw new Error(`Setting ${env} is not declared with a setting.* builder`);
    return { ...meta, env, flag: meta.flag ?? defaultFlag(env), required, default: shownDefault };
  });
}

function textOf(value: unknown): string {
  return Array.isArray(value) ? value.join(",") : String(value);
}
