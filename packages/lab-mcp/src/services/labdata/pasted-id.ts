// What a scientist pastes to name a record: its id, or the address of its page in the web app, whose
// path names the id (…/f/lib_K3x-cloning/seq_a1B2c3-pUC19/edit). An entity may also be named by its
// registry id (PL09003), which the platform resolves (entity-ref.ts).
import { InvalidInputError } from "../../core/errors.js";
import { boundedString, takesNumberAsText } from "../../core/inputs.js";

/** A platform id as it starts a path segment: a lowercase prefix, '_', letters and digits. */
const PLATFORM_ID = /^([a-z]+)_[A-Za-z0-9]+/;
/** An id or registry id as typed: letters, digits, '_' and '-'. */
const PLAIN = /^[\w-]+$/;
/** The prefixes of the records that hold entities in a web address (folders, projects, entries). */
const CONTAINING_PREFIXES = ["lib", "src", "etr"];

/** An input that takes an id or the record's web address (long enough for one). */
export function pastedId(description: string) {
  return takesNumberAsText(boundedString({ description, max: 500 }));
}

/** What an id names, for the text of a refusal and which web-address segment to take. */
export interface IdKind {
  /** With its article, e.g. "an entity", "a notebook entry". */
  name: string;
  /** The id prefixes it takes from a web address ("etr"); absent: any but those of folders, projects, entries. */
  prefixes?: string[];
}

export const ENTITY: IdKind = { name: "an entity" };

/**
 * The id `value` names: the value itself when it is one, or the last segment of a web address's path
 * that starts with an id of `kind`. Anything else is refused as the input's fault, before any request.
 */
export function idFromPasted(tool: string, field: string, value: string, kind: IdKind): string {
  if (!/^https?:\/\//i.test(value)) {
    if (PLAIN.test(value)) return value;
    throw refusal(tool, field, `give the id of ${kind.name} or the address of its page`);
  }
  let path: string[];
  try {
    path = new URL(value).pathname.split("/").map((segment) => decodeURIComponent(segment));
  } catch {
    throw refusal(tool, field, `give the id of ${kind.name} or the address of its page`);
  }
  for (const segment of path.reverse()) {
    const match = PLATFORM_ID.exec(segment);
    if (!match?.[1]) continue;
    const wanted = kind.prefixes ? kind.prefixes.includes(match[1]) : !CONTAINING_PREFIXES.includes(match[1]);
    if (wanted) return match[0];
  }
  throw refusal(
    tool,
    field,
    `the address does not name ${kind.name}; give its id or the address of its page`,
  );
}

function refusal(tool: string, field: string, why: string): InvalidInputError {
  return new InvalidInputError(`Error: Invalid input for ${tool}: ${field}: ${why}.`);
}
