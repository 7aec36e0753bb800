// Query parameters the notebook, assay and workflow lists share beyond api/listing.ts: comma lists, and
// the document's time filters ("> 2022-03-01 AND < 2022-04-01", createdAt.gte=..., unix seconds).
import { badRequest } from "../api/errors.js";

/** The values of a comma-separated parameter, or undefined when it is absent. */
export function commaList(params: URLSearchParams, name: string): Set<string> | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  const values = raw
    .split(",")
    .map((value) => value.trim())
    .filter(Boolean);
  if (values.length === 0) throw badRequest(`${name} must not be empty`);
  if (values.length > 100) throw badRequest(`${name} takes at most 100 values`);
  return new Set(values);
}

function instant(name: string, text: string): number {
  const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(time)) throw badRequest(`${name}: '${text}' is not an RFC 3339 date or time`);
  return time;
}

export type TimeTest = (ms: number) => boolean;

const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  ">": (a, b) => a > b,
  ">=": (a, b) => a >= b,
  "<": (a, b) => a < b,
  "<=": (a, b) => a <= b,
};

/** `modifiedAt=> 2022-03-01 AND < 2022-04-01`: every clause must hold; `>=` and `<=` are refused. */
export function rangeParameter(params: URLSearchParams, name: string): TimeTest | undefined {
  const raw = params.get(name);
  if (raw === null) return undefined;
  const tests = raw.split(/\s+AND\s+/i).map((clause) => {
    // The document names only > and < for these ranges.
    const match = /^\s*(>|<)\s*([^=\s].*?)\s*$/.exec(clause);
    if (!match) throw badRequest(`${name} must look like '> 2022-03-01 AND < 2022-04-01'`);
    const [, operator = ">", text = ""] = match;
    const bound = instant(name, text);
    const compare = COMPARE[operator] ?? COMPARE[">"];
    return (ms: number) => (compare as (a: number, b: number) => boolean)(ms, bound);
  });
  return (ms) => tests.every((test) => test(ms));
}

/** `createdAt.gte=...` and its siblings (.gt, .lt, .lte), all of which must hold. */
export function boundParameters(params: URLSearchParams, field: string): TimeTest | undefined {
  const tests: TimeTest[] = [];
  for (const [suffix, operator] of [
    ["gt", ">"],
    ["gte", ">="],
    ["lt", "<"],
    ["lte", "<="],
  ] as const) {
    const raw = params.get(`${field}.${suffix}`);
    if (raw === null) continue;
    const bound = instant(`${field}.${suffix}`, raw.trim());
    const compare = COMPARE[operator] as (a: number, b: number) => boolean;
    tests.push((ms) => compare(ms, bound));
  }
  return tests.length > 0 ? (ms) => tests.every((test) => test(ms)) : undefined;
}

/** `minCreatedTime` / `maxCreatedTime`: unix seconds. */
export function unixBounds(params: URLSearchParams): TimeTest | undefined {
  const min = params.get("minCreatedTime");
  const max = params.get("maxCreatedTime");
  if (min === null && max === null) return undefined;
  const seconds = (name: string, raw: string | null): number | undefined => {
    if (raw === null) return undefined;
    if (!/^\d{1,12}$/.test(raw)) throw badRequest(`${name} must be a unix time in seconds`);
    return Number(raw) * 1000;
  };
  const low = seconds("minCreatedTime", min);
  const high = seconds("maxCreatedTime", max);
  return (ms) => (low === undefined || ms >= low) && (high === undefined || ms <= high);
}

/** A copy of `params` whose sort names modifiedAt where the caller named createdAt (lists keyed so). */
export function withCreatedSort(params: URLSearchParams): URLSearchParams {
  const copy = new URLSearchParams(params);
  const sort = copy.get("sort");
  if (sort?.startsWith("createdAt")) copy.set("sort", sort.replace("createdAt", "modifiedAt"));
  else if (sort === null) copy.set("sort", "modifiedAt:desc");
  return copy;
}
