// Text the repository sends in any of its forms (fact sheet sections 4, 5.1 and 6): a Draft.js document
// serialised into a string or already parsed, HTML (v3 descriptions, `content_format=html`, titles and
// section names with tags and entities), or markdown/plain text. Agents read markdown, never the raw forms.
import { createRequire } from "node:module";
import type { compile as Compile, HtmlToTextOptions } from "html-to-text";
import { draftDocumentOf, draftToMarkdown } from "./draft-js.js";

const HTML_OPTIONS: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    {
      selector: "a",
      options: { hideLinkHrefIfSameAsText: true, linkBrackets: ["(", ")"] },
    },
    { selector: "img", format: "skip" },
    { selector: "ul", options: { itemPrefix: "- " } },
    ...["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } },
  ],
};

/**
 * html-to-text (about 10 MiB with its parser) is loaded on the first HTML to read, not at start, and its
 * options compiled once: its own convert() compiles them anew on every call, a few milliseconds each,
 * which a protocol with a hundred HTML fields paid a hundred times.
 */
let converter: ((html: string) => string) | undefined;
function convert(html: string): string {
  converter ??= (createRequire(import.meta.url)("html-to-text") as { compile: typeof Compile }).compile(
    HTML_OPTIONS,
  );
  return converter(html);
}

/** Tags (`<p>`, `<br/>`, `</div>`...) or character references (`&amp;`, `&#39;`). */
const LOOKS_LIKE_HTML = /<\/?[a-z][a-z0-9]*(\s[^>]*)?\/?>|&(#\d+|#x[0-9a-f]+|[a-z]+\d*);/i;

/** Tags that make a block: their text is HTML, not markdown. */
const HTML_BLOCK = /<(p|div|br|ul|ol|li|h[1-6]|table|tr|blockquote|pre)\b/i;

/** Rich text as markdown; undefined when there is none. */
export function richText(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const draft = draftDocumentOf(typeof value === "string" ? parseJsonObject(value) : value);
  if (draft) return nonEmpty(draftToMarkdown(draft));
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") return undefined;
  if (!LOOKS_LIKE_HTML.test(value)) return nonEmpty(value);
  // An HTML document is converted whole; markdown with inline HTML (`cm<sup>2</sup>`, `&amp;`) line by
  // line, so that its own line breaks and lists survive.
  if (HTML_BLOCK.test(value)) return nonEmpty(convert(value));
  return nonEmpty(
    value
      .split("\n")
      .map((line) => (LOOKS_LIKE_HTML.test(line) ? convert(line) : line))
      .join("\n"),
  );
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

/** Trimmed, with runs of blank lines (empty Draft.js blocks turned into markdown) made one; undefined when empty. */
function nonEmpty(text: string): string | undefined {
  const trimmed = text.replace(/\n[ \t]*(\n[ \t]*)+\n/g, "\n\n").trim();
  return trimmed === "" ? undefined : trimmed;
}
