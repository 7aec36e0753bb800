// Inputs shared by the protocols tools and resources; the conventions' own (limit, offset,
// response_format) come from core/inputs.ts, as for every service.
import { z } from "zod";
import type { PdfView } from "./api/pdf-view.js";
import type { ListQuery } from "./api/protocol-lists.js";

const PROTOCOL_REF_RULE =
  "must be a protocol id (digits, e.g. 12314) or uri (e.g. western-blot-for-erk-4haf43q)";
const PROTOCOL_TEXT_RULE =
  `${PROTOCOL_REF_RULE}, or its DOI in any written form (e.g. 10.17504/protocols.io.4haf43q, ` +
  "https://doi.org/10.17504/protocols.io.4haf43q) or its page's address (e.g. " +
  "https://www.protocols.io/view/western-blot-for-erk-4haf43q, or its .pdf), optionally followed by /v2 (that version) or /latest";

/**
 * Every written form of a reference: an id or uri, a DOI with or without its resolver ("doi:",
 * "https://doi.org/", "dx.doi.org/") and prefix ("10.17504/"), or the address of the protocol's page
 * (https://www.protocols.io/view/<uri>), then an optional "/vN" or "/latest" and "/". Only letters,
 * digits, ".", "_" and "-" in each part, so nothing can change a request's path.
 */
const PROTOCOL_TEXT =
  /^(?:(?:https?:\/\/)?(?:dx\.)?doi\.org\/|doi:\s?|(?:https?:\/\/)?(?:www\.)?protocols\.io\/(?:view|private)\/)?(?:10\.17504\/)?([A-Za-z0-9][A-Za-z0-9._-]*)(?:\/(v\d{1,6}|latest))?\/?$/i;

/**
 * A web address as pasted from a browser: its query and fragment (?step=3, #section) say nothing of
 * which protocol, nor does the ending of the page's other views (/view/<uri>.pdf, .html, .json).
 */
const withoutQuery = (text: string) =>
  text
    .replace(/^((?:https?:\/\/|(?:www\.)?protocols\.io\/|(?:dx\.)?doi\.org\/)[^?#]*)[?#].*$/i, "$1")
    .replace(/^((?:https?:\/\/)?(?:www\.)?protocols\.io\/view\/[^/]+)\.(?:pdf|html|json)$/i, "$1");

/** The canonical reference: "<id, uri or DOI name>" or "<...>/v2" / "<...>/latest" (api/protocols.ts protocolPath). */
function canonicalRef(pasted: string): string {
  const text = withoutQuery(pasted);
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
        // The written forms are checked here and told in the description: the long pattern would cost
        // every listing of every tool that takes a protocol a hundred tokens.
        z
          .string()
          .trim()
          .min(1, { message: "must not be empty or whitespace only", abort: true })
          .max(200, "must be at most 200 characters")
          .refine((text) => PROTOCOL_TEXT.test(withoutQuery(text)), PROTOCOL_TEXT_RULE)
          .transform(canonicalRef),
        z.number().int(PROTOCOL_REF_RULE).min(1, PROTOCOL_REF_RULE),
      ],
      { error: PROTOCOL_REF_RULE },
    )
    .transform(String)
    .describe(description);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: these exist to refuse control characters
const CONTROL_IN_LINE = /[\u0000-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: as above, tab and line breaks allowed
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/**
 * Text as core's boundedString takes it (trimmed, bounded, no control characters; tabs and line breaks
 * only when multiline), with the same messages, but the control-character rule is checked rather than
 * spelt out as a pattern: in every listing each pattern cost 25 to 30 tokens, and these tools take many.
 */
export function checkedText(bounds: { description: string; max: number; min?: number; multiline?: boolean }) {
  const { description, max, min = 1, multiline = false } = bounds;
  let schema = z.string().trim().min(1, { message: "must not be empty or whitespace only", abort: true });
  if (min > 1) schema = schema.min(min, `must be at least ${min} characters`);
  return schema
    .max(max, `must be at most ${max} characters`)
    .refine(
      (text) => !(multiline ? CONTROL_IN_TEXT : CONTROL_IN_LINE).test(text),
      "must not contain control characters",
    )
    .describe(description);
}

export const ORDERS = ["relevance", "activity", "newest", "oldest", "title"] as const;
export type Order = (typeof ORDERS)[number];

export function orderInput(defaultText: string) {
  return z.enum(ORDERS).optional().describe(`Default: ${defaultText}.`);
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
  only: z.enum(PDF_PARTS).optional().describe("Only this part (after the title block); default everything."),
  compact_view: z.boolean().default(false).describe("Without the description and guidelines."),
};

export function pdfViewOf(args: { only?: PdfView["only"]; compact_view?: boolean }): PdfView {
  return { compact: args.compact_view === true, ...(args.only ? { only: args.only } : {}) };
}
