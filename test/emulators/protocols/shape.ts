// Compares JSON values by shape (keys and value types), as the fact sheet's examples carry neutral values.
import { expect } from "vitest";

type Shape = string | Shape[] | { [key: string]: Shape };

/** Types of the leaves, keys of the objects; an array's shape is its first element's (or none). */
export function shapeOf(value: unknown): Shape {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(entries.map(([key, inner]) => [key, shapeOf(inner)]));
  }
  return typeof value;
}

// Empty arrays on either side say nothing about their elements, and a null leaf matches any leaf: the
// sheet's nullable fields (next_page, affiliation, previous_guid…) show null or a value.
function loosenArrays(actual: Shape, example: Shape): Shape {
  if (typeof actual === "string" && typeof example === "string" && (actual === "null" || example === "null"))
    return example;
  if (Array.isArray(actual) && Array.isArray(example)) {
    const [a] = actual;
    const [e] = example;
    return a === undefined || e === undefined ? [] : [loosenArrays(a, e)];
  }
  if (typeof actual === "object" && typeof example === "object" && !Array.isArray(example)) {
    const a = actual as Record<string, Shape>;
    return Object.fromEntries(
      Object.entries(a).map(([k, v]) => [k, k in example ? loosenArrays(v, example[k] as Shape) : v]),
    );
  }
  return actual;
}

/** `actual` has exactly the keys and value types of `example`, at every depth. */
export function expectSameShape(actual: unknown, example: unknown): void {
  const exampleShape = shapeOf(example);
  const actualShape = loosenArrays(shapeOf(actual), exampleShape);
  expect(actualShape).toEqual(loosenArrays(exampleShape, actualShape));
}

/** Every key of `example` is in `actual` with the same value type, at every depth (more keys allowed). */
export function expectShapeIncludes(actual: unknown, example: unknown): void {
  const exampleShape = shapeOf(example);
  const pick = (a: Shape, e: Shape): Shape => {
    if (Array.isArray(e))
      return Array.isArray(a) && a[0] !== undefined && e[0] !== undefined
        ? [pick(a[0], e[0])]
        : Array.isArray(a) && e.length === 0
          ? []
          : a;
    if (typeof e === "object" && typeof a === "object" && !Array.isArray(a)) {
      return Object.fromEntries(
        Object.keys(e).map((k) => [k, k in a ? pick(a[k] as Shape, e[k] as Shape) : "missing"]),
      );
    }
    return a;
  };
  const picked = pick(shapeOf(actual), exampleShape);
  expect(picked).toEqual(loosenArrays(exampleShape, picked));
}
