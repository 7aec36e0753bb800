// The creation filter every list that has it shares: `created`, a span of days in the form people and
// search boxes write (GitHub's `created:2026-05-01..2026-05-31`). The span becomes a half-open interval
// of instants [from, until), UTC, which each list's request spells its own way (createdAt range, unix
// seconds, createdAt.gte/lt). A person (`creator`): person-ref.ts.
import { boundedString } from "../../core/inputs.js";

/** A year, a month or a day: 2026, 2026-05, 2026-05-04. */
const PERIOD = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

export interface CreatedSpan {
  /** The first instant in the span (inclusive), ISO; absent when open at the start. */
  from?: string;
  /** The first instant after the span (exclusive), ISO; absent when open at the end. */
  until?: string;
}

/** The first instant of a period and the first after it; undefined for a date that does not exist. */
function period(text: string): { start: number; end: number } | undefined {
  const match = PERIOD.exec(text);
  if (!match) return undefined;
  const [, year, month, day] = match;
  const y = Number(year);
  const m = month === undefined ? 0 : Number(month) - 1;
  const d = day === undefined ? 1 : Number(day);
  const start = Date.UTC(y, m, d);
  const back = new Date(start);
  // Date.UTC rolls 2026-02-30 over to March: such a day does not exist
  // (and years 0 to 99 to 1900 to 1999).
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== m || back.getUTCDate() !== d) return undefined;
  const end =
    day !== undefined
      ? Date.UTC(y, m, d + 1)
      : month !== undefined
        ? Date.UTC(y, m + 1, 1)
        : Date.UTC(y + 1, 0, 1);
  return { start, end };
}

/** `2026-05`, `2026-05-04`, `2026`, `2026-05-01..2026-05-31`, `2026-05-01..` or `..2026-05-31`. */
export function parseSpan(text: string): CreatedSpan | undefined {
  const [first = "", last, ...rest] = text.split("..");
  if (rest.length > 0) return undefined;
  if (last === undefined) {
    const one = period(first);
    return one && { from: iso(one.start), until: iso(one.end) };
  }
  if (first === "" && last === "") return undefined;
  const start = first === "" ? undefined : period(first);
  const end = last === "" ? undefined : period(last);
  if ((first !== "" && !start) || (last !== "" && !end)) return undefined;
  if (start && end && start.start >= end.end) return undefined;
  return { from: start && iso(start.start), until: end && iso(end.end) };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A span of days as a tool input (`created`, `modified`): the handler gets its instants. */
export const daySpanInput = boundedString({
  description: "Day, month (2026-05) or first..last (either end optional).",
  max: 24,
})
  .refine((value) => parseSpan(value) !== undefined, {
    message: "give a day, a month or first..last with first not after last, e.g. 2026-05-01..2026-05-31",
  })
  .transform((value) => ({ text: value, ...(parseSpan(value) as CreatedSpan) }));

export const createdInput = daySpanInput;

export type CreatedFilter = { text: string } & CreatedSpan;

/** The span as the platform's range parameters (createdAt, modifiedAt): `> A AND < B`, strict as the document allows. */
export function spanRange(span: CreatedSpan | undefined): string | undefined {
  if (!span || (!span.from && !span.until)) return undefined;
  const after = span.from && `> ${iso(Date.parse(span.from) - 1)}`;
  const before = span.until && `< ${span.until}`;
  return [after, before].filter(Boolean).join(" AND ");
}

/** The span as unix seconds, both ends inclusive (minCreatedTime, maxCreatedTime). */
export function createdSeconds(span: CreatedSpan | undefined): { min?: string; max?: string } {
  return {
    min: span?.from && String(Math.floor(Date.parse(span.from) / 1000)),
    max: span?.until && String(Math.ceil(Date.parse(span.until) / 1000) - 1),
  };
}
