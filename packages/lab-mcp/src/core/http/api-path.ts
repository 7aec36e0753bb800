// Request paths safe by construction: apiPath`api/v2/dna-sequences/${id}` encodes every value as one
// path segment (a "/" or "?" in an id cannot reach another endpoint) and refuses the values that
// would still move the path ("", ".", ".."). RemoteClient takes only an ApiPath, so a path joined by
// hand does not compile.
import { InvalidInputError } from "../errors.js";

declare const apiPathBrand: unique symbol;

/** A remote path relative to the service's base URL, built by apiPath. */
export type ApiPath = string & { readonly [apiPathBrand]: true };

/** The values that name no resource, only a place: an empty segment, this folder, the parent. */
const PLACE_SEGMENTS = new Set(["", ".", ".."]);

export function apiPath(parts: TemplateStringsArray, ...values: Array<string | number>): ApiPath {
  let path = parts[0] ?? "";
  for (const [i, value] of values.entries()) {
    path += pathSegment(value) + (parts[i + 1] ?? "");
  }
  return path as ApiPath;
}

function pathSegment(value: string | number): string {
  const text = String(value);
  if (PLACE_SEGMENTS.has(text)) {
    throw new InvalidInputError(
      `Error: Invalid input: '${text}' is not an id. Use an id as the list and search tools show it.`,
    );
  }
  return encodeURIComponent(text);
}
