// The repository's records as the tools use them, read leniently from every recorded variant (fact
// sheet sections 3 to 8 and 12): nothing but an id is required, a value of the wrong type reads as
// missing, and rich text arrives as markdown whatever form it was sent in.
import { z } from "zod";
import {
  doiOf,
  flag,
  integerOf,
  isRecord,
  type Json,
  numberOf,
  recordsOf,
  stringOf,
  unixSecondsOf,
} from "./lenient.js";
import { inlineText, richText } from "./rich-text.js";
import { readComponents } from "./step-components.js";

export interface Person {
  name: string;
  username?: string;
  affiliation?: string;
}

export interface ProtocolSummary {
  id: number;
  title: string;
  /** The uri slug; the id as text when the repository sent none (the views resolve both). */
  uri: string;
  url?: string;
  /** Without its resolver, e.g. "10.17504/protocols.io.abc123/v2". */
  doi?: string;
  version_id?: number;
  creator?: Person;
  authors: Person[];
  description?: string;
  created_on?: number;
  published_on?: number;
  public?: boolean;
  /** Whether the signed-in user bookmarked it, where the repository says (list items and records). */
  is_bookmarked?: boolean;
  number_of_steps?: number;
  stats?: Record<string, number>;
}

export interface Material {
  name: string;
  vendor?: string;
  sku?: string;
  /** How much is used, as written. */
  amount?: string;
}

export interface Version {
  version_id: number;
  title?: string;
  created_on?: number;
}

export interface Step {
  id?: number;
  guid?: string;
  previous_id?: number;
  previous_guid?: string;
  /** Dotted, e.g. "2.1". */
  number?: string;
  section?: string;
  /** Markdown; "" for a step that only names its section. */
  step: string;
}

export interface Protocol extends ProtocolSummary {
  guidelines?: string;
  before_start?: string;
  warning?: string;
  materials_text?: string;
  materials: Material[];
  versions: Version[];
  /** Undefined when the repository sent `steps` null or none: read them from the steps endpoint. */
  steps?: Step[];
}

export interface Profile {
  username?: string;
  name?: string;
  email?: string;
  affiliation?: string;
}

/** A person from `name`, or from `first_name` + `last_name` (v4); undefined when both are blank. */
export function readPerson(value: unknown): Person | undefined {
  if (!isRecord(value)) return undefined;
  const name =
    inlineText(value.name) ??
    inlineText([stringOf(value.first_name), stringOf(value.last_name)].filter(Boolean).join(" "));
  if (!name) return undefined;
  return omitUndefined({
    name,
    username: stringOf(value.username),
    affiliation: inlineText(value.affiliation),
  });
}

export function readSummary(value: Json): ProtocolSummary | undefined {
  const id = integerOf(value.id, 0);
  if (id === undefined) return undefined;
  const stats = statsOf(value.stats);
  return omitUndefined({
    id,
    title: inlineText(value.title) ?? inlineText(value.title_html) ?? "(untitled)",
    uri: stringOf(value.uri) ?? String(id),
    url: stringOf(value.url),
    doi: doiOf(value.doi),
    version_id: integerOf(value.version_id, 0),
    creator: readPerson(value.creator),
    authors: recordsOf(value.authors ?? value.authors_list)
      .map(readPerson)
      .filter((p): p is Person => p !== undefined),
    description: richText(value.description),
    created_on: unixSecondsOf(value.created_on),
    published_on: unixSecondsOf(value.published_on),
    public: flag(value.public),
    is_bookmarked: flag(value.is_bookmarked),
    number_of_steps: integerOf(stats?.number_of_steps ?? value.number_of_steps, 0),
    stats,
  });
}

export function readProtocol(value: Json): Protocol | undefined {
  const summary = readSummary(value);
  if (!summary) return undefined;
  const steps = Array.isArray(value.steps) ? readSteps(value.steps) : undefined;
  return omitUndefined({
    ...summary,
    guidelines: richText(value.guidelines),
    before_start: richText(value.before_start),
    warning: richText(value.warning),
    materials_text: richText(value.materials_text),
    materials: recordsOf(value.materials)
      .map(readMaterial)
      .filter((m): m is Material => m !== undefined),
    versions: recordsOf(value.versions).flatMap((v) => {
      const version_id = integerOf(v.version_id, 0);
      if (version_id === undefined) return [];
      return [
        omitUndefined({ version_id, title: inlineText(v.title), created_on: unixSecondsOf(v.created_on) }),
      ];
    }),
    steps,
    number_of_steps: steps ? steps.length : summary.number_of_steps,
  });
}

/** A reagent: its vendor a name or a user-like object (v3), its catalog number `sku`, an amount if said. */
export function readMaterial(value: Json): Material | undefined {
  const name = inlineText(value.name);
  if (!name) return undefined;
  const vendor = isRecord(value.vendor) ? readPerson(value.vendor)?.name : inlineText(value.vendor);
  const amount = stringOf(value.amount) ?? quantityOf(value.quantity, value.unit);
  return omitUndefined({ name, vendor, sku: stringOf(value.sku), amount });
}

/** "5 mL" from a quantity and a unit said in words (a numeric unit id says nothing readable). */
function quantityOf(quantity: unknown, unit: unknown): string | undefined {
  const amount = stringOf(quantity);
  if (amount === undefined) return undefined;
  const word = stringOf(unit);
  return word && !/^\d+$/.test(word) ? `${amount} ${word}` : amount;
}

/** Steps as sent (not yet ordered): v4 `step` text, or v3 components (section title, description...). */
export function readSteps(values: unknown[]): Step[] {
  return values.filter(isRecord).map((value) => {
    const components = readComponents(value.components);
    return omitUndefined({
      id: integerOf(value.id),
      guid: stringOf(value.guid),
      previous_id: integerOf(value.previous_id),
      previous_guid: stringOf(value.previous_guid),
      number: stringOf(value.number),
      section: inlineText(value.section) ?? components.section,
      step: richText(value.step) ?? components.text ?? "",
    });
  });
}

/** The counters of `stats`, flattened: `number_of_forks: {private, public}` becomes two numbers. */
function statsOf(value: unknown): Record<string, number> | undefined {
  if (!isRecord(value)) return undefined;
  const stats: Record<string, number> = {};
  for (const [key, count] of Object.entries(value)) {
    if (isRecord(count)) {
      for (const [kind, n] of Object.entries(count)) {
        const number = numberOf(n);
        if (number !== undefined) stats[`${key}_${kind}`] = number;
      }
    } else {
      const number = numberOf(count);
      if (number !== undefined) stats[key] = number;
    }
  }
  return stats;
}

export function readProfile(value: unknown): Profile {
  if (!isRecord(value)) return {};
  const person = readPerson(value);
  return omitUndefined({
    username: stringOf(value.username),
    name: person?.name,
    email: stringOf(value.email),
    affiliation: inlineText(value.affiliation),
  });
}

/** The object without its undefined members, so that JSON output and equality read cleanly. */
export function omitUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Seconds as a number or a numeric string: the token answers' examples all send "30681976". */
const seconds = z.preprocess((value) => numberOf(value), z.number().positive());

/**
 * A token answer (fact sheet 2.2): `token_type` "bearer" in any case, `expires_in` a string or a number,
 * extra fields (`refresh_expires_in`, `user`, `status_code`) ignored. A refresh answer may leave the
 * refresh token out (it stays the same); a code exchange may not.
 */
export const refreshResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().nullish(),
  expires_in: seconds,
  refresh_token: z.string().min(1).optional(),
});
export const tokenResponseSchema = refreshResponseSchema.extend({ refresh_token: z.string().min(1) });
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/** The error body of the OAuth token endpoint (RFC 6749 section 5.2). */
export const oauthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });
