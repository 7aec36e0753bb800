// What a scientist pastes to name a record: its id, or the address of its page in the web app, whose
// path names the id (…/f/lib_K3x-cloning/seq_a1B2c3-pUC19/edit). The input takes either and hands the
// handler the id; an entity may also be named by its registry id (PL09003), which entity-ref.ts resolves.
import { z } from "zod";
import { boundedString, takesNumberAsText } from "../../core/inputs.js";

/** A platform id as it starts a path segment: a lowercase prefix, '_', letters and digits. */
const PLATFORM_ID = /^([a-z]+)_[A-Za-z0-9]+/;
/** An id or registry id as typed: letters, digits, '_' and '-' (nothing that changes a request's path). */
const PLAIN = /^[\w-]+$/;
/** The prefixes of the records that hold entities in a web address (folders, projects, entries). */
const CONTAINING_PREFIXES = ["lib", "src", "etr"];

/** What an id names, for the refusal's words and which segment of a web address to take. */
export interface IdKind {
  /** With its article, e.g. "an entity", "a notebook entry". */
  name: string;
  /** The id prefixes it takes from a web address ("etr"); absent: any but those of folders, projects, entries. */
  prefixes?: string[];
}

export const ENTITY: IdKind = { name: "an entity" };
export const ENTRY: IdKind = { name: "a notebook entry", prefixes: ["etr"] };
export const FOLDER: IdKind = { name: "a folder", prefixes: ["lib"] };

/**
 * The id `value` names: the value itself when it is one, or the last segment of a web address's path
 * that starts with an id of `kind`; otherwise why not, as the input's fault.
 */
export function idFromPasted(value: string, kind: IdKind): { id: string } | { why: string } {
  const askFor = `give the id of ${kind.name} or the address of its page`;
  if (!/^https?:\/\//i.test(value)) return PLAIN.test(value) ? { id: value } : { why: askFor };
  let path: string[];
  try {
    path = new URL(value).pathname.split("/").map((segment) => decodeURIComponent(segment));
  } catch {
    return { why: askFor };
  }
  for (const segment of path.reverse()) {
    const match = PLATFORM_ID.exec(segment);
    if (!match?.[1]) continue;
    const wanted = kind.prefixes ? kind.prefixes.includes(match[1]) : !CONTAINING_PREFIXES.includes(match[1]);
    if (wanted) return { id: match[0] };
  }
  return { why: `the address does not name ${kind.name}; give its id or the address of its page` };
}

/** An input that takes an id of `kind` or its page's address, and gives the handler the id. */
export function pastedId(description: string, kind: IdKind) {
  return takesNumberAsText(
    boundedString({ max: 500 })
      .transform((value, ctx) => {
        const found = idFromPasted(value, kind);
        if ("id" in found) return found.id;
        ctx.issues.push({ code: "custom", message: found.why, input: value });
        return z.NEVER;
      })
      .describe(description),
  );
}

/** An assay run's id: a UUID (the platform's runs have no prefixed id). */
const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A run as a scientist names it: its number or name ("run 12"), its id, or an address that names its id
 * (its API address, https://<tenant>.benchling.com/api/v2/assay-runs/<id>, or a page whose path ends in
 * it). The input gives the handler the text, or the id taken from the address.
 */
export function runInput(description: string) {
  return takesNumberAsText(
    boundedString({ max: 500 })
      .transform((value, ctx) => {
        if (!/^https?:\/\//i.test(value)) {
          if (value.length <= 100) return value;
          ctx.issues.push({ code: "custom", message: "must be at most 100 characters", input: value });
          return z.NEVER;
        }
        let path: string[] = [];
        try {
          path = new URL(value).pathname.split("/").map((segment) => decodeURIComponent(segment));
        } catch {
          // Not an address after all: refused below like one that names no run.
        }
        const id = path.reverse().find((segment) => RUN_ID.test(segment));
        if (id) return id;
        ctx.issues.push({
          code: "custom",
          message: "the address does not name an assay run; give its number or id",
          input: value,
        });
        return z.NEVER;
      })
      .describe(description),
  );
}
