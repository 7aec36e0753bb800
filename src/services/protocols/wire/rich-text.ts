// Text the repository sends in any of its forms (fact sheet sections 4, 5.1 and 6): a Draft.js document
// serialised into a string or already parsed, HTML (v3 descriptions, `content_format=html`, titles and
// section names with tags and entities), or markdown/plain text. Agents read markdown, never the raw forms.
import { convert } from "html-to-text";
import { draftDocumentOf, draftToMarkdown } from "./draft-js.js";

const HTML_OPTIONS = {
  wordwrap: false as const,
  selectors: [
    {
      selector: "a",
      options: { hideLinkHrefIfSameAsText: true, linkBrackets: ["(", ")"] as [string, string] },
    },
    { selector: "img", format: "skip" },
    { selector: "ul", options: { itemPrefix: "- " } },
    ...["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } },
  ],
};

/** Tags (`<p>`, `<br/>`, `</div>`...) or character references (`&amp;`, `&#39;`). */
const LOOKS_LIKE_HTML = /<\/?[a-z][a-z0-9]*(\s[^>]*)?\/?>|&(#\d+|#x[0-9a-f]+|[a-z]+\d*);/i;

/** Rich text as markdown; undefined when there is none. */
export function richText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const draft = draftDocumentOf(typeof value === "string" ? parseJsonObject(value) : value);
  if (draft) return nonEmpty(draftToMarkdown(draft));
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") return undefined;
  return nonEmpty(LOOKS_LIKE_HTML.test(value) ? convert(value, HTML_OPTIONS) : value);
}

/** A title or section name on one line: tags gone, entities decoded, whitespace collapsed. */
export function inlineText(value: unknown): string | undefined {
  const text = richText(value);
  return text === undefined ? undefined : nonEmpty(text.replace(/\s+/g, " "));
}

/** A string that starts with "{" and is JSON; else undefined (plain text that merely starts with "{"). */
function parseJsonObject(text: string): unknown {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("{")) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

function nonEmpty(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed === "" ? undefined : trimmed;
}
