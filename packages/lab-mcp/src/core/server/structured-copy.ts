// The structured copy of a markdown answer: what the tool's output schema declares, and no more. A
// record the remote sent whole (every field, bases, nested documents) stays in the json answer, where
// the agent asked for everything; the markdown answer's copy carries the ids, names and figures its
// text shows, which is what the schema of a service that opts in (briefStructured) declares.

type Schema = Record<string, unknown>;

/**
 * `value` cut down to the properties `schema` declares, however deep; undeclared parts stay whole. Below
 * the top (an item of a list, a linked record) a property that is null is left out: it shows nothing.
 */
export function declaredPart(schema: unknown, value: unknown, top = true): unknown {
  if (!isObject(schema)) return value;
  if (Array.isArray(schema.anyOf)) {
    const option = schema.anyOf.find((candidate) => fits(candidate, value));
    return option === undefined ? value : declaredPart(option, value, top);
  }
  if (Array.isArray(value))
    return isObject(schema.items) ? value.map((item) => declaredPart(schema.items, item, false)) : value;
  if (!isObject(value)) return value;
  // A record (fields by name): each value cut down to what the record's values declare.
  if (!isObject(schema.properties) && isObject(schema.additionalProperties)) {
    const values = schema.additionalProperties;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, declaredPart(values, item, false)]),
    );
  }
  if (!isObject(schema.properties)) return value;
  const properties = schema.properties;
  const kept: Schema = {};
  for (const [key, item] of Object.entries(value)) {
    if (!Object.hasOwn(properties, key) || (item === null && !top)) continue;
    kept[key] = declaredPart(properties[key], item, false);
  }
  return kept;
}

/** Whether an anyOf option is the one for this value's JSON type. */
function fits(option: unknown, value: unknown): boolean {
  if (!isObject(option)) return false;
  const types = [option.type].flat();
  if (Array.isArray(value)) return types.includes("array");
  if (isObject(value)) return types.includes("object");
  return false;
}

function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
