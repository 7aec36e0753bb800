// The JSON Schemas tools/list shows, without what costs an agent tokens and tells it nothing: the
// dialect URI (2020-12 is MCP's default); in inputs, the control-character patterns every text field
// has, the id pattern every id field has (an id is copied from an answer, never composed) and the
// `minLength: 1` every text field has (all still enforced: core/inputs.ts), an offset's
// cap at JavaScript's safe range (the conventions bound it "at least 0"), and a day's pattern and
// length spelt as `format: "date"` (still enforced: YYYY-MM-DD, a real day); in outputs, integer
// bounds that are only JavaScript's safe range, `additionalProperties: {}` (open is JSON Schema's
// default), `required` (an answer's fields are its description, not a contract an agent checks), keys
// of a record said to be strings (JSON's keys are), and a value-or-null spelt as one type list
// (`"type": ["integer", "null"]`, an object's too) rather than two alternatives.
import { DAY, ID_CHARACTERS, MULTILINE, SINGLE_LINE } from "../inputs.js";

type Schema = Record<string, unknown>;

const SAFE = Number.MAX_SAFE_INTEGER;
const UNLISTED_PATTERNS = new Set([SINGLE_LINE.source, MULTILINE.source, ID_CHARACTERS.source]);

/** A copy of `schema` with the noise above removed, however deep. */
export function compactSchema<T>(schema: T, io: "input" | "output"): T {
  return compact(schema, io) as T;
}

function dropped(key: string, item: unknown, io: "input" | "output"): boolean {
  if (key === "$schema") return true;
  if (io === "input")
    return (key === "pattern" && UNLISTED_PATTERNS.has(String(item))) || (key === "minLength" && item === 1);
  if (key === "minimum" && item === -SAFE) return true;
  if (key === "maximum" && item === SAFE) return true;
  if (key === "required") return true;
  if (key === "propertyNames" && isStringType(item)) return true;
  return key === "additionalProperties" && isEmptyObject(item);
}

function compact(value: unknown, io: "input" | "output"): unknown {
  if (Array.isArray(value)) return value.map((item) => compact(item, io));
  if (value === null || typeof value !== "object") return value;
  const nullable = io === "output" ? orNull(value as Schema) : undefined;
  if (nullable) return compact(nullable, io);
  const out: Schema = {};
  const day = (value as Schema).pattern === DAY.source;
  for (const [key, item] of Object.entries(value as Schema)) {
    if (dropped(key, item, io) || (day && key === "maxLength")) continue;
    if (day && key === "pattern") out.format = "date";
    else out[key] = key === "properties" ? compactEach(item as Schema, io) : compact(item, io);
  }
  return out;
}

/**
 * The properties by name: each a schema, whatever its name (a property may be called "$schema"). The
 * conventions bound an offset below only ("at least 0"): its cap, JavaScript's safe range, is not listed.
 */
function compactEach(properties: Schema, io: "input" | "output"): Schema {
  return Object.fromEntries(
    Object.entries(properties).map(([name, schema]) => {
      const compacted = compact(schema, io) as Schema;
      if (io === "input" && name === "offset" && compacted.maximum === SAFE) delete compacted.maximum;
      return [name, compacted];
    }),
  );
}

/** `{anyOf: [{type: "integer", ...}, {type: "null"}]}` as `{type: ["integer", "null"], ...}`; else undefined. */
function orNull(schema: Schema): Schema | undefined {
  const options = schema.anyOf;
  if (!Array.isArray(options) || options.length !== 2 || Object.keys(schema).length !== 1) return undefined;
  const [first, second] = options as Schema[];
  const isNull = (option: Schema | undefined) => option?.type === "null" && Object.keys(option).length === 1;
  const other = isNull(second) ? first : isNull(first) ? second : undefined;
  if (!other || typeof other.type !== "string" || other.type === "array") return undefined;
  return { ...other, type: [other.type, "null"] };
}

/** `{type: "string"}` and nothing else. */
function isStringType(value: unknown): boolean {
  return isObjectValue(value) && value.type === "string" && Object.keys(value).length === 1;
}

function isObjectValue(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}
