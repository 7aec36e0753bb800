// How the emulator words its answers: each knob is one shape the real service has been recorded to send
// (the fact sheet ../shared/reference/protocols-io-api.md, section numbers below), or the emulator's
// original shape. The rules (auth, visibility, rate limits, PDFs) never depend on the dialect; only the
// JSON around the data does. Two presets: `legacy` (the shapes the emulator always sent) and `recorded`
// (every recorded real-service shape at once).
import { z } from "zod";

export const DIALECT_PRESETS = ["legacy", "recorded"] as const;
export type DialectPreset = (typeof DIALECT_PRESETS)[number];

/** The preset a new emulator starts with when no `dialect` option is given: the real service's shapes. */
export const DEFAULT_DIALECT_PRESET: DialectPreset = "recorded";

const dialectSchema = z.strictObject({
  /** `public`: true (v4 live, §12), 1 (2018 docs, 2019 recordings, §3.3), "1" (2017 docs, §3.3); by-version: 1 on v3, true on v4. */
  flags: z.enum(["boolean", "integer", "string", "by-version"]),
  /** List envelope (§3.2): pagination object only; 2019 (top-level totals, extras, pagination with next_page URL); top-level totals only (2017-18 docs); no totals at all. */
  listEra: z.enum(["pagination", "2019", "top-level", "absent"]),
  /** First page_id (§3.4): docs and the 2019 recording say 1, some clients observe 0; current_page counts from 1 either way. */
  pageOrigin: z.union([z.literal(0), z.literal(1)]),
  /** People (§4.1, §12): `name`; v4 `first_name`/`last_name` without `name` plus a blank author; by-version: name on v3, split on v4. */
  people: z.enum(["name", "split", "by-version"]),
  /** DOI (§4.1): dx.doi.org/… everywhere, or with a `/vN` suffix on the v4 protocol. */
  doi: z.enum(["plain", "versioned"]),
  /** Titles and section names (§4.1, §5.1): plain text, or HTML (entities in titles, `title_html`, `<p>` sections). */
  markup: z.enum(["plain", "html"]),
  /** Rich text (description, guidelines, steps) when no content_format is asked (§6): plain ignores content_format. */
  richText: z.enum(["plain", "draftjs", "html", "markdown"]),
  /** Key of the protocol in GET /api/v4/protocols/{id} (§4, §12). */
  protocolKey: z.enum(["payload", "protocol"]),
  /** The protocol's `steps` (§4.1: may be null): included, null, or left out. */
  protocolSteps: z.enum(["included", "null", "absent"]),
  /** Key of the list in GET …/steps (§5.1, §12). */
  stepsKey: z.enum(["payload", "steps"]),
  /** Array order of steps (§5.3: not a guarantee): the linked order, or shuffled (links and numbers still right). */
  stepOrder: z.enum(["linked", "shuffled"]),
  /** `previous_id` of the first step (§5.2, §12): null or 0. `previous_guid` is null either way. */
  firstPreviousId: z.union([z.null(), z.literal(0)]),
  /** Key of the error text (§1, §10): v3 error_message, v4 status_text; by-version follows the path. */
  errorKey: z.enum(["error_message", "status_text", "by-version"]),
  /** Bad and expired tokens (§10): HTTP 401, or HTTP 400 with the real texts, as recorded. */
  authErrors: z.enum(["http401", "http400"]),
  /** warning_code 1 and warning_message on 200 answers for a token that expires within 30 days (§1, §10). */
  expiryWarning: z.boolean(),
  /** Token answer (§2.2): the spec's, or recorded (string expires_in, lowercase bearer, extra fields). */
  tokenResponse: z.enum(["spec", "recorded"]),
  /** Authorize parameter (§2.1): redirect_uri only (the spec), or redirect_uri or redirect_url. */
  redirectParam: z.enum(["redirect_uri", "either"]),
});

export type Dialect = z.infer<typeof dialectSchema>;

const PRESETS: Record<DialectPreset, Dialect> = {
  legacy: {
    flags: "boolean",
    listEra: "pagination",
    pageOrigin: 1,
    people: "name",
    doi: "plain",
    markup: "plain",
    richText: "plain",
    protocolKey: "payload",
    protocolSteps: "included",
    stepsKey: "payload",
    stepOrder: "linked",
    firstPreviousId: null,
    errorKey: "error_message",
    authErrors: "http401",
    expiryWarning: false,
    tokenResponse: "spec",
    redirectParam: "redirect_uri",
  },
  recorded: {
    flags: "by-version",
    listEra: "2019",
    // The 2019 recording (§3.2 b) starts at current_page 1 with prev_page null.
    pageOrigin: 1,
    people: "by-version",
    doi: "versioned",
    markup: "html",
    richText: "draftjs",
    protocolKey: "payload",
    protocolSteps: "null",
    stepsKey: "payload",
    stepOrder: "shuffled",
    firstPreviousId: 0,
    errorKey: "by-version",
    authErrors: "http400",
    expiryWarning: true,
    tokenResponse: "recorded",
    redirectParam: "either",
  },
};

export function presetDialect(preset: DialectPreset): Dialect {
  return { ...PRESETS[preset] };
}

/** A change of dialect: a preset to start from (else the current dialect), then single knobs. */
export const dialectPatchSchema = dialectSchema
  .partial()
  .extend({ preset: z.enum(DIALECT_PRESETS).optional() });

export type DialectPatch = z.input<typeof dialectPatchSchema>;

export function applyDialectPatch(current: Dialect, patch: z.output<typeof dialectPatchSchema>): Dialect {
  const { preset, ...knobs } = patch;
  const base = preset ? presetDialect(preset) : { ...current };
  for (const [name, value] of Object.entries(knobs)) {
    if (value !== undefined) Object.assign(base, { [name]: value });
  }
  return base;
}

/** The preset whose knobs all equal `dialect`'s, or "custom". */
export function presetName(dialect: Dialect): DialectPreset | "custom" {
  const same = (a: Dialect, b: Dialect) =>
    (Object.keys(a) as (keyof Dialect)[]).every((key) => a[key] === b[key]);
  return DIALECT_PRESETS.find((name) => same(PRESETS[name], dialect)) ?? "custom";
}

export type ApiVersion = "v3" | "v4";

export function apiVersionOf(path: string): ApiVersion {
  return path.startsWith("/api/v4/") ? "v4" : "v3";
}

export function errorTextKey(dialect: Dialect, version: ApiVersion): "error_message" | "status_text" {
  if (dialect.errorKey !== "by-version") return dialect.errorKey;
  return version === "v4" ? "status_text" : "error_message";
}
