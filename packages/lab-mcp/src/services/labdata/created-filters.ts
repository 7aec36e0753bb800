// The creation filters every list that has them shares: `created`, a span of days in the form people
// and search boxes write (GitHub's `created:2026-05-01..2026-05-31`), and `creator`, a person. The span
// becomes a half-open interval of instants [from, until), UTC, which each list's request spells its own
// way (createdAt range, unix seconds, createdAt.gte/lt).
import { InvalidInputError, InvalidResponseError } from "../../core/errors.js";
import { boundedString } from "../../core/inputs.js";
import { CANDIDATES, usersNamed } from "./api/users.js";
import type { LabdataCall } from "./call.js";
import type { LabdataClient } from "./client.js";
import { nameAndId } from "./format/labels.js";

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

/** A person as a scientist names a colleague: 'me', a user id, a handle or a name. */
export function personInput(description: string) {
  return boundedString({ description, max: 100 });
}

export const creatorInput = personInput("'me', a user id, handle or name.");

/** A platform user id as the document shows them: the platform names users as entities. */
const USER_ID = /^ent_[A-Za-z0-9]+$/;

/**
 * The user id a person input names: the caller's own for "me", an id as it is, else the one user whose
 * handle, name or part of a name it is (several or none refused, naming whom). A caller record without
 * an id cannot be filtered on: that is said, rather than listing everyone's records as if they were the
 * caller's.
 */
export async function personId(
  client: LabdataClient,
  named: string | undefined,
  where: { tool: string; field: string },
  ctx: LabdataCall,
): Promise<string | undefined> {
  if (named === undefined || USER_ID.test(named)) return named;
  if (named.toLowerCase() === "me") {
    const { id } = await client.me(ctx);
    if (!id) throw new InvalidResponseError("the platform's users/me answer has no id to filter on");
    return id;
  }
  const users = await usersNamed(client, named, ctx);
  const [only] = users;
  if (users.length === 1 && only?.id) return only.id;
  const refused = `Error: Invalid input for ${where.tool}: ${where.field}:`;
  if (users.length === 0) {
    throw new InvalidInputError(
      `${refused} nobody you may see has the handle or name '${named}'. Give 'me', a user id or a name.`,
    );
  }
  const each = users.map(
    (user) => `${nameAndId(user.name, user.id)}${user.handle ? ` @${user.handle}` : ""}`,
  );
  throw new InvalidInputError(
    `${refused} '${named}' names ${users.length === CANDIDATES ? `${CANDIDATES} or more people` : `${users.length} people`}: ${each.join(", ")}. Give one's id.`,
  );
}

/** The user id `creator` names (personId, for the creator filter). */
export function creatorId(
  client: LabdataClient,
  creator: string | undefined,
  tool: string,
  ctx: LabdataCall,
): Promise<string | undefined> {
  return personId(client, creator, { tool, field: "creator" }, ctx);
}

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
