// The repository's single values as lenient zod schemas, for every record of this folder (fact sheet
// sections 1, 3.3, 4.1 and 12): flags as true, 1 or "1"; numbers as numbers or numeric strings; rich
// text as markdown whatever form it came in. null, "" and a value of another type read as missing
// (undefined), never as a failure. Each converts in a preprocess and checks with a refine, so that the
// JSON Schema agents see is the plain output type ("string", "integer"...), as with labdata's records.
import { z } from "zod";
import { inlineText, richText } from "./rich-text.js";

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A value read leniently: absent, null or not of its kind all read as undefined. */
export const lenient = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const numeric = (value: unknown) =>
  typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;

/** A finite number, from a number or a numeric string. */
export const number = lenient(z.preprocess(numeric, z.number()));

/** A whole number of at least `min`, required (a record without it is no record). */
export const wholeNumber = (min = Number.MIN_SAFE_INTEGER) =>
  z.preprocess(
    numeric,
    z
      .number()
      .int()
      .refine((n) => n >= min),
  );

/** A whole number of at least `min`. */
export const integer = (min?: number) => lenient(wholeNumber(min));

/** Unix seconds; 0 means "never" (an unpublished protocol's published_on). */
export const unixSeconds = integer(1);

const FLAGS = new Map<unknown, boolean>([
  [true, true],
  [1, true],
  ["1", true],
  ["true", true],
  [false, false],
  [0, false],
  ["0", false],
  ["false", false],
]);

/** true/1/"1"/"true" and false/0/"0"/"false"; anything else is unknown. */
export const flag = lenient(z.preprocess((value) => FLAGS.get(value), z.boolean()));

const trimmed = (value: unknown) =>
  typeof value === "number" && Number.isFinite(value)
    ? String(value)
    : typeof value === "string"
      ? value.trim()
      : value;

/** A string that is not blank, trimmed; a number as its text. */
export const text = lenient(
  z.preprocess(
    trimmed,
    z.string().refine((s) => s !== ""),
  ),
);

/** Rich text (Draft.js, HTML or markdown) as markdown. */
export const markdown = lenient(z.preprocess(richText, z.string()));

/** Rich text as one line of plain text (titles, names, section names). */
export const inline = lenient(z.preprocess(inlineText, z.string()));

/** The same, required: a record without it is no record. */
export const requiredInline = z.preprocess(inlineText, z.string());

/**
 * A DOI without its resolver ("dx.doi.org/", "https://doi.org/", "doi:"), its version suffix ("/v3")
 * kept: protocols.io registers one DOI per version.
 */
export const doi = lenient(
  z.preprocess(
    (value) =>
      text
        .parse(value)
        ?.replace(/^(https?:\/\/)?(dx\.)?doi\.org\//i, "")
        .replace(/^doi:\s*/i, ""),
    z.string().refine((s) => s !== ""),
  ),
);

/** The items of a list that read as `item`; anything but an array is an empty list. */
export const list = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) => (Array.isArray(value) ? value.filter((each) => item.safeParse(each).success) : []),
    z.array(item),
  );

/** The same, undefined (not empty) when the repository sent no array. */
export const listIfSent = <T extends z.ZodType>(item: T) =>
  lenient(
    z.preprocess(
      (value) => (Array.isArray(value) ? value.filter((each) => item.safeParse(each).success) : value),
      z.array(item),
    ),
  );

/** "5 mL" from an amount and a unit said in words (a bare numeric unit id says nothing readable). */
export function quantityText(amount: unknown, unit: unknown): string | undefined {
  const value = text.parse(amount);
  if (value === undefined) return undefined;
  const word = text.parse(unit);
  return word && !/^\d+$/.test(word) ? `${value} ${word}` : value;
}
