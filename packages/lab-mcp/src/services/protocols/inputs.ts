// Inputs shared by the protocols tools and resources.
import { z } from "zod";
import { boundedString } from "../../core/inputs.js";
import type { PdfView } from "./api/pdf-view.js";
import type { ListQuery } from "./api/protocol-lists.js";

const PROTOCOL_REF_RULE =
  "must be a protocol id (digits, e.g. 12314) or uri (e.g. western-blot-for-erk-4haf43q)";
const PROTOCOL_TEXT_RULE =
  `${PROTOCOL_REF_RULE}, or its DOI in any written form (e.g. 10.17504/protocols.io.4haf43q, ` +
  "https://doi.org/10.17504/protocols.io.4haf43q), optionally followed by /v2 (that version) or /latest";

/**
 * Every written form of a reference: an id or uri, or a DOI with or without its resolver ("doi:",
 * "https://doi.org/", "dx.doi.org/") and prefix ("10.17504/"), then an optional "/vN" or "/latest".
 * Only letters, digits, ".", "_" and "-" in each part, so nothing can change a request's path.
 */
const PROTOCOL_TEXT =
  /^(?:(?:https?:\/\/)?(?:dx\.)?doi\.org\/|doi:\s?)?(?:10\.17504\/)?([A-Za-z0-9][A-Za-z0-9._-]*)(?:\/(v\d{1,6}|latest))?$/i;

/** The canonical reference: "<id, uri or DOI name>" or "<...>/v2" / "<...>/latest" (api/protocols.ts protocolPath). */
function canonicalRef(text: string): string {
  const [, base = text, version] = PROTOCOL_TEXT.exec(text) ?? [];
  // DOI names are lower case (protocols.io.4haf43q); a uri keeps what it was given.
  const name = /^protocols\.io\./i.test(base) ? base.toLowerCase() : base;
  return version ? `${name}/${version.toLowerCase()}` : name;
}

/**
 * A protocol's numeric id, its URI slug or its DOI (any written form), as text or (an id) as a number,
 * which is how agents and clients often send an id they saw as a number; "/v2" or "/latest" after it
 * asks for that version. Nothing that could change the path of a request.
 */
export function protocolRef(description: string) {
  return z
    .union(
      [
        boundedString({
          description: "The id, uri or DOI, as text; add /v2 for version 2, /latest for the newest.",
          max: 200,
          pattern: { regex: PROTOCOL_TEXT, message: PROTOCOL_TEXT_RULE },
        }).transform(canonicalRef),
        z
          .number()
          .int(PROTOCOL_REF_RULE)
          .min(1, PROTOCOL_REF_RULE)
          .max(Number.MAX_SAFE_INTEGER)
          .describe("The id, as a number."),
      ],
      { error: PROTOCOL_REF_RULE },
    )
    .transform(String)
    .describe(description);
}

export const ORDERS = ["relevance", "activity", "newest", "oldest", "title"] as const;
export type Order = (typeof ORDERS)[number];

export function orderInput(defaultText: string) {
  return z
    .enum(ORDERS)
    .optional()
    .describe(
      "Order: 'relevance' (keyword hits, title first), 'activity' (most used), 'newest' or 'oldest' " +
        `(publication date), 'title' (A to Z). Default: ${defaultText}.`,
    );
}

export function orderOf(order: Order): Pick<ListQuery, "orderField" | "orderDir"> {
  switch (order) {
    case "relevance":
      return { orderField: "relevance", orderDir: "desc" };
    case "activity":
      return { orderField: "activity", orderDir: "desc" };
    case "newest":
      return { orderField: "date", orderDir: "desc" };
    case "oldest":
      return { orderField: "date", orderDir: "asc" };
    case "title":
      return { orderField: "name", orderDir: "asc" };
  }
}

export const ORDER_WORDS: Record<Order, string> = {
  relevance: "most relevant first",
  activity: "most used first",
  newest: "newest first",
  oldest: "oldest first",
  title: "by title",
};

export const PDF_PARTS = ["materials", "steps", "commands"] as const;

/** The PDF view inputs (compact_view, only): for the PDF tool and anything else that fetches a PDF. */
export const pdfViewInputs = {
  only: z
    .enum(PDF_PARTS)
    .optional()
    .describe(
      "Only one part of the protocol (after its title block): 'materials', 'steps' or 'commands'. Default: everything.",
    ),
  compact_view: z
    .boolean()
    .default(false)
    .describe("The compact view: without the description and guidelines (default false)."),
};

export function pdfViewOf(args: { only?: PdfView["only"]; compact_view?: boolean }): PdfView {
  return { compact: args.compact_view === true, ...(args.only ? { only: args.only } : {}) };
}
