// Calls made from a tool's own JSON schema (as tools/list shows it): valid arguments, and invalid ones
// of every kind an agent or an attacker sends: wrong types, out-of-range and fractional numbers, strings
// too long or too short, empty or whitespace only, control characters, path tricks in ids, values
// outside an enum, lists too long or with bad items, unknown and missing fields, and two at once.

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  default?: unknown;
  anyOf?: JsonSchema[];
}

export interface InvalidCase {
  /** What is wrong, e.g. "limit: out of range (101)". */
  label: string;
  args: Record<string, unknown>;
}

/**
 * Whether `schema` accepts `value`, strings trimmed first as the servers do: the subset of JSON Schema
 * that tools/list shows (type, enum, lengths, pattern, bounds, items, properties, anyOf).
 */
export function accepts(schema: JsonSchema, value: unknown): boolean {
  if (schema.anyOf) return schema.anyOf.some((option) => accepts(option, value));
  if (schema.enum) return typeof value === "string" && schema.enum.includes(value.trim());
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string": {
      if (typeof value !== "string") return false;
      const text = value.trim();
      if (text.length < Math.max(schema.minLength ?? 0, 0) || text.length > (schema.maxLength ?? Infinity))
        return false;
      return !schema.pattern || new RegExp(schema.pattern, "u").test(text);
    }
    case "integer":
    case "number":
      return (
        typeof value === "number" &&
        (type === "number" || Number.isInteger(value)) &&
        value >= (schema.minimum ?? -Infinity) &&
        value <= (schema.maximum ?? Infinity)
      );
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return (
        Array.isArray(value) &&
        value.length <= (schema.maxItems ?? Infinity) &&
        value.every((item) => accepts(schema.items ?? {}, item))
      );
    case "object": {
      if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
      const record = value as Record<string, unknown>;
      const properties = schema.properties ?? {};
      return (
        (schema.required ?? []).every((name) => name in record) &&
        Object.entries(record).every(
          ([name, item]) => properties[name] !== undefined && accepts(properties[name], item),
        )
      );
    }
    default:
      return true;
  }
}

/**
 * Every way a value of this field can be wrong: never a value the schema accepts, except control
 * characters in free text, which the suites hold invalid everywhere (a name is one line of text).
 */
export function invalidValues(schema: JsonSchema): Array<{ what: string; value: unknown }> {
  if (schema.anyOf) {
    const options = schema.anyOf.flatMap((option) => rawInvalidValues(option));
    return options.filter(({ what, value }) => what === "control characters" || !accepts(schema, value));
  }
  return rawInvalidValues(schema).filter(
    ({ what, value }) => what === "control characters" || !accepts(schema, value),
  );
}

function rawInvalidValues(schema: JsonSchema): Array<{ what: string; value: unknown }> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const out: Array<{ what: string; value: unknown }> = [];
  const add = (what: string, ...values: unknown[]) => {
    for (const value of values) out.push({ what, value });
  };
  const wrongTypes = (except: string) => {
    const samples: Record<string, unknown[]> = {
      string: ["text", "5", "true", ""],
      number: [0, 1.5, -1, 1e308],
      boolean: [true, false],
      null: [null],
      array: [[], ["x"], [1, 2]],
      object: [{}, { value: 1 }, { $ref: "#" }],
    };
    for (const [kind, values] of Object.entries(samples)) {
      if (kind === except || (except === "integer" && kind === "number")) continue;
      add(`wrong type (${kind})`, ...values);
    }
  };

  if (schema.enum) {
    wrongTypes("string");
    add(
      "not one of the allowed values",
      ...[
        "MARKDOWN",
        "Json",
        "xml",
        "markdown,json",
        "markdown json",
        "md",
        "*",
        "../json",
        "json\u0000",
        "\u200bjson",
      ].filter((value) => !schema.enum?.includes(value)),
    );
    add("empty or whitespace only", " ", "\t\n");
    return out;
  }
  if (type === "string") {
    wrongTypes("string");
    const max = schema.maxLength ?? 200;
    const min = schema.minLength ?? 1;
    const filler = "a";
    add("too long", filler.repeat(max + 1), ` ${filler.repeat(max + 1)} `);
    if (max <= 10_000) add("far too long", filler.repeat(max * 10 + 7));
    if (min > 1) add("too short", filler.repeat(min - 1), ` ${filler.repeat(min - 1)}\n`);
    add(
      "empty or whitespace only",
      "",
      " ",
      "   ",
      "\t",
      "\n\n",
      "\r\n",
      " \t \n ",
      "\u00a0",
      "\u2003",
      "\ufeff",
      "\u3000",
    );
    add(
      "control characters",
      "ab\u0000cd",
      "\u0007bell",
      "ab\u001b[31mred",
      "a\u007fb",
      "x\u0008y",
      "line\u000bx",
      "\u0000",
    );
    // Where a pattern is declared (ids), the tricks it must refuse; in free text "../" is just text.
    const pattern = schema.pattern ? new RegExp(schema.pattern, "u") : undefined;
    if (pattern) {
      const tricks: string[] = [];
      tricks.push(
        "../",
        "..",
        ".",
        "../../etc/passwd",
        "..\\..\\windows\\win.ini",
        "%2e%2e%2f",
        "..%2F..%2Fusers%2Fme",
        "seq/../other",
        "/absolute",
        "a/b",
        "a?b=c",
        "a#b",
        "a b",
        "a;b",
        "a&b=c",
        "~",
        "a\\b",
        "file:///etc/passwd",
        "https://evil.example/",
        "ѕeq_cyrillic",
        "a:b",
        "'; DROP TABLE x; --",
        "<script>",
      );
      add("path tricks", ...tricks.filter((trick) => !pattern.test(trick.trim())));
    }
    return out;
  }
  if (type === "integer" || type === "number") {
    wrongTypes(type);
    const min = schema.minimum ?? Number.MIN_SAFE_INTEGER;
    const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
    if (type === "integer") add("not a whole number", min + 0.5, min + 1.25, 0.1, max - 0.5);
    add("below the minimum", min - 1, min - 1000, -1e308);
    if (max < Number.MAX_SAFE_INTEGER) add("above the maximum", max + 1, max * 10 + 1, 1e308);
    else add("above the maximum", Number.MAX_SAFE_INTEGER + 2, 1e21, 1e308);
    return out.filter(
      ({ value }) => !(typeof value === "number" && value >= min && value <= max && Number.isInteger(value)),
    );
  }
  if (type === "boolean") {
    wrongTypes("boolean");
    add("not a boolean", "true", "false", "yes", 1, 0);
    return out;
  }
  if (type === "array") {
    wrongTypes("array");
    const items = schema.items ?? {};
    const good = validValue(items);
    const maxItems = schema.maxItems ?? 100;
    add(
      "too many items",
      Array.from({ length: maxItems + 1 }, () => good),
    );
    if (maxItems <= 50)
      add(
        "far too many items",
        Array.from({ length: maxItems * 3 + 1 }, () => good),
      );
    for (const bad of invalidValues(items)) add(`an item: ${bad.what}`, [bad.value], [good, bad.value]);
    return out;
  }
  if (type === "object") {
    wrongTypes("object");
    const valid = validObject(schema);
    for (const name of schema.required ?? []) {
      const { [name]: _left, ...rest } = valid;
      add(`missing ${name}`, rest);
    }
    for (const extra of unknownFieldNames(schema)) add(`unknown field '${extra}'`, { ...valid, [extra]: 1 });
    for (const [name, child] of Object.entries(schema.properties ?? {})) {
      for (const bad of invalidValues(child)) add(`${name}: ${bad.what}`, { ...valid, [name]: bad.value });
    }
    return out;
  }
  wrongTypes("");
  return out;
}

/** Names that are not fields of `schema`: near misses of real names, prototype keys, odd characters. */
function unknownFieldNames(schema: JsonSchema): string[] {
  const names = Object.keys(schema.properties ?? {});
  const near = names.flatMap((name) => [
    name.toUpperCase(),
    `${name}_`,
    `${name} `,
    name.replace(/_/g, ""),
    name.replace(/_(.)/g, (_m, c: string) => c.toUpperCase()),
  ]);
  // Not "__proto__": the SDK's request parsing drops that key before any tool sees the arguments.
  const generic = [
    "extra",
    "constructor",
    "prototype",
    "toString",
    "hasOwnProperty",
    "$schema",
    "",
    " ",
    "a b",
    "\u0000",
  ];
  return [...new Set([...near, ...generic])].filter((name) => !names.includes(name));
}

/** A value the schema accepts. */
export function validValue(schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return "ab1_"
        .repeat(Math.ceil(Math.max(schema.minLength ?? 1, 3) / 4))
        .slice(0, Math.max(schema.minLength ?? 1, 3));
    case "integer":
    case "number":
      return Math.max(schema.minimum ?? 0, Math.min(schema.maximum ?? 1, 1));
    case "boolean":
      return false;
    case "array":
      return [];
    case "object":
      return validObject(schema);
    default:
      return null;
  }
}

/** An object with every required field set (and nothing else). */
export function validObject(schema: JsonSchema): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const name of schema.required ?? []) {
    const field = schema.properties?.[name];
    if (field) object[name] = validValue(field);
  }
  return object;
}

/** Arguments with every optional field set to a valid value that is not its default. */
function fullObject(schema: JsonSchema, sample: Record<string, unknown>): Record<string, unknown> {
  const object: Record<string, unknown> = { ...validObject(schema), ...sample };
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    if (name in object) continue;
    if (field.enum) object[name] = field.enum[field.enum.length - 1];
    else if (field.type === "integer") object[name] = Math.min(field.maximum ?? 5, (field.minimum ?? 0) + 5);
    else if (field.type === "boolean") object[name] = true;
    else if (field.type === "array") object[name] = [];
    else if (field.type === "string") object[name] = validValue(field);
  }
  return object;
}

/** A tiny seeded generator, so that every run makes the same calls. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * At least `atLeast` invalid calls of one tool: each single mistake on two valid starting points (only
 * the required fields; every field set), then pairs of mistakes in two different fields, and missing
 * required fields. JSON round-tripped, so that what runs in memory is what would cross the wire.
 */
export function invalidCalls(
  schema: JsonSchema,
  sample: Record<string, unknown>,
  atLeast: number,
): InvalidCase[] {
  const starts = [
    { name: "minimal", args: { ...validObject(schema), ...pick(sample, schema.required ?? []) } },
    { name: "full", args: fullObject(schema, sample) },
  ];
  const perField = Object.entries(schema.properties ?? {}).map(([name, field]) => ({
    name,
    bad: invalidValues(field),
  }));
  const cases: InvalidCase[] = [];
  for (const start of starts) {
    for (const { name, bad } of perField) {
      for (const { what, value } of bad) {
        cases.push({ label: `${name}: ${what} (${start.name})`, args: { ...start.args, [name]: value } });
      }
    }
    for (const extra of unknownFieldNames(schema)) {
      cases.push({
        label: `unknown field '${extra}' (${start.name})`,
        args: { ...start.args, [extra]: "x" },
      });
    }
  }
  for (const name of schema.required ?? []) {
    const { [name]: _left, ...rest } = starts[1]?.args ?? {};
    cases.push({ label: `missing ${name}`, args: rest });
    cases.push({ label: `${name}: null`, args: { ...rest, [name]: null } });
  }
  const random = seeded(cases.length * 7919 + perField.length);
  const fields = perField.filter(({ bad }) => bad.length > 0);
  for (let guard = 0; cases.length < atLeast && guard < atLeast * 10; guard++) {
    const start = starts[Math.floor(random() * starts.length)]?.args ?? {};
    const a = fields[Math.floor(random() * fields.length)];
    const b = fields[Math.floor(random() * fields.length)];
    if (!a || !b) break;
    const badA = a.bad[Math.floor(random() * a.bad.length)];
    const badB = b.bad[Math.floor(random() * b.bad.length)];
    if (!badA || !badB) continue;
    if (a === b) {
      const extra = unknownFieldNames(schema)[Math.floor(random() * 5)] ?? "extra";
      cases.push({
        label: `${a.name}: ${badA.what}; unknown field '${extra}'`,
        args: { ...start, [a.name]: badA.value, [extra]: true },
      });
    } else {
      cases.push({
        label: `${a.name}: ${badA.what}; ${b.name}: ${badB.what}`,
        args: { ...start, [a.name]: badA.value, [b.name]: badB.value },
      });
    }
  }
  return cases.map(({ label, args }) => ({ label, args: JSON.parse(JSON.stringify(args)) }));
}

function pick(object: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([key]) => keys.includes(key)));
}
