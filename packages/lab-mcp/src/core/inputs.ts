// The shared inputs of the conventions and the bounded building blocks every tool input is made of.
// Each helper carries a type, a description and bounds, so that no tool can declare an unbounded field.
import { z } from "zod";

export const RESPONSE_FORMATS = ["markdown", "json"] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

export const responseFormat = z.enum(RESPONSE_FORMATS).default("markdown").describe("'json': every field.");

export const limit = boundedInteger({
  min: 1,
  max: 100,
  description: "Page size.",
}).default(20);

export const offset = boundedInteger({
  min: 0,
  max: Number.MAX_SAFE_INTEGER,
  description: "Skip (next_offset).",
}).default(0);

/**
 * A json answer's selection: only these keys of each record, the envelope whole. `known` are the
 * record's field names (the remote's document); a name outside them is refused before any request,
 * in the words of an unknown input field. Given, it implies response_format=json.
 */
export function fieldsInput(known: readonly string[]) {
  const allowed = [...new Set(known)].sort();
  return z
    .array(boundedString({ max: 64 }))
    .max(40, "must have at most 40 items")
    .superRefine((names, ctx) => {
      const unknown = names.filter((name) => !allowed.includes(name));
      if (unknown.length === 0) return;
      const listed = unknown.map((name) => `'${name}'`).join(", ");
      ctx.addIssue({
        code: "custom",
        message: `unknown field${unknown.length > 1 ? "s" : ""} ${listed} (allowed: ${allowed.join(", ")})`,
      });
    })
    .optional()
    .describe("json of only these keys of each record.");
}

/** The paging inputs every list tool takes. */
export const pagingInputs = { limit, offset, response_format: responseFormat };

interface StringBounds {
  /** Said of every input field; left out for an item of a list, which its list's description covers. */
  description?: string;
  min?: number;
  max: number;
  /**
   * A regular expression the trimmed value must match, with the message shown when it does not. It
   * replaces the control-character rule, so it must refuse control characters itself.
   */
  pattern?: { regex: RegExp; message: string };
  /** Text that may span lines (tabs and line breaks allowed); other strings are a single line. */
  multiline?: boolean;
}

// No C0 or C1 control character, DEL included (NUL, ESC... have no business in an input and some
// remotes choke on them); spelt with \u escapes so that any JSON Schema reader can use the pattern.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these patterns exist to refuse control characters
export const SINGLE_LINE = /^[^\u0000-\u001f\u007f-\u009f]*$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above, tab and line breaks allowed
export const MULTILINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;

/**
 * A required string, trimmed before its bounds are checked (the tool wrapper trims too), without
 * control characters.
 */
export function boundedString({ description, min = 1, max, pattern, multiline = false }: StringBounds) {
  let schema = z.string().trim().min(1, { message: "must not be empty or whitespace only", abort: true });
  if (min > 1) schema = schema.min(min, `must be at least ${min} characters`);
  schema = schema.max(max, `must be at most ${max} characters`);
  schema = pattern
    ? schema.regex(pattern.regex, pattern.message)
    : schema.regex(multiline ? MULTILINE : SINGLE_LINE, "must not contain control characters");
  return description === undefined ? schema : schema.describe(description);
}

interface IntegerBounds {
  description: string;
  min: number;
  max: number;
}

export function boundedInteger({ description, min, max }: IntegerBounds) {
  return z
    .number()
    .int("must be a whole number")
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`)
    .describe(description);
}

interface ListBounds {
  description: string;
  maxItems?: number;
  itemMaxLength?: number;
}

/** An optional list of strings, empty by default, at most 10 items unless said otherwise. */
export function stringList({ description, maxItems = 10, itemMaxLength = 100 }: ListBounds) {
  return z
    .array(boundedString({ max: itemMaxLength }))
    .max(maxItems, `must have at most ${maxItems} items`)
    .default([])
    .describe(description);
}

/** A day, YYYY-MM-DD: tools/list shows it as `format: "date"` (core/server/compact-schema.ts). */
export const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The characters of an id of the remote: letters, digits, "_" and "-" only, so that no path trick
 * reaches a URL. \w is exactly A-Z, a-z, 0-9 and _ in every ECMA-262 reader.
 */
export const ID_CHARACTERS = /^[\w-]+$/;

/** An id of the remote (ID_CHARACTERS). */
export function identifier(description: string, max = 64) {
  return takesNumberAsText(
    boundedString({
      description,
      max,
      pattern: { regex: ID_CHARACTERS, message: "must contain only letters, digits, '_' and '-'" },
    }),
  );
}

/** Text fields that name something by id or number: 12 is read as "12" there (core/validate.ts). */
const NUMBER_AS_TEXT = new WeakSet<z.core.$ZodType>();

/** Marks a text field whose value may come as a number (an id, a run number): a model that sees 12 sends 12. */
export function takesNumberAsText<T extends z.core.$ZodType>(schema: T): T {
  NUMBER_AS_TEXT.add(schema);
  return schema;
}

/** Whether `field` (or the field it makes optional or defaults) was marked by takesNumberAsText. */
export function readsNumberAsText(field: z.core.$ZodType): boolean {
  let current: z.core.$ZodType | undefined = field;
  for (let depth = 0; current && depth < 4; depth++) {
    if (NUMBER_AS_TEXT.has(current)) return true;
    current = (current._zod.def as { innerType?: z.core.$ZodType }).innerType;
  }
  return false;
}
