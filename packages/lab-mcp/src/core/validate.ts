// Input rules of the conventions, applied before any handler runs: strings trimmed, unknown fields
// rejected, every bound checked, and a message the model can act on when something is wrong.
import { z } from "zod";
import { InvalidInputError } from "./errors.js";
import { readsNumberAsText } from "./inputs.js";

/**
 * One strict object per tool's shape, built once: zod compiles an object's fast parser on its first
 * use, so a fresh schema per call would pay that on every call.
 */
const strictObjects = new WeakMap<z.ZodRawShape, z.ZodObject>();

export function inputSchemaOf(shape: z.ZodRawShape): z.ZodObject {
  let schema = strictObjects.get(shape);
  if (!schema) {
    schema = z.strictObject(shape);
    strictObjects.set(shape, schema);
  }
  return schema;
}

export function validateInput<Shape extends z.ZodRawShape>(
  toolName: string,
  shape: Shape,
  rawArgs: unknown,
): z.output<z.ZodObject<Shape>> {
  const args = numbersAsText(shape, trimStrings(rawArgs ?? {}));
  const parsed = inputSchemaOf(shape).safeParse(args);
  if (parsed.success) return parsed.data as z.output<z.ZodObject<Shape>>;
  const problems = parsed.error.issues.map((issue) => describeIssue(issue, args, Object.keys(shape)));
  throw new InvalidInputError(
    `Error: Invalid input for ${toolName}: ${problems.join("; ")}. Correct the arguments and call the tool again.`,
  );
}

/** Strips surrounding whitespace from every string, however deep. */
export function trimStrings(value: unknown): unknown {
  if (typeof value === "string") return value.trim();
  if (Array.isArray(value)) return value.map(trimStrings);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, trimStrings(item)]));
  }
  return value;
}

/**
 * An integer given where an id-like field takes text (run=12, marked by takesNumberAsText) is read as
 * its text ("12"): a model that sees a number sends one. Other text fields keep refusing numbers.
 */
function numbersAsText(shape: z.ZodRawShape, args: unknown): unknown {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return args;
  const out: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const [key, value] of Object.entries(out)) {
    const field = shape[key];
    if (!field || !Number.isSafeInteger(value) || !readsNumberAsText(field)) continue;
    const takes = (candidate: unknown) => z.safeParse(field, candidate).success;
    if (!takes(value) && takes(String(value))) out[key] = String(value);
  }
  return out;
}

function describeIssue(issue: z.core.$ZodIssue, args: unknown, knownFields: string[]): string {
  const field = issue.path.length > 0 ? issue.path.join(".") : "arguments";
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((key) => `'${key}'`).join(", ");
    return `unknown field${issue.keys.length > 1 ? "s" : ""} ${keys} (allowed: ${knownFields.join(", ") || "none"})`;
  }
  if (issue.code === "invalid_type" && valueAt(args, issue.path) === undefined)
    return `${field}: is required`;
  return `${field}: ${issue.message}`;
}

function valueAt(value: unknown, path: PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
