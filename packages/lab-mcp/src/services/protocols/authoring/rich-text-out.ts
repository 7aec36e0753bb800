// Rich text the agent writes (markdown) in the form the repository takes: a Draft.js raw state serialised
// into a JSON string, its default rich-text form (fact sheet §6). markdown-draft-js does the parsing
// (paragraphs, lists, headings, bold, italic, code, links); each block then gets the `key` and `data` a
// raw state carries, which that library leaves out.
import { createRequire } from "node:module";
import type { markdownToDraft as MarkdownToDraft } from "markdown-draft-js";

/** markdown-draft-js (and its markdown parser) is loaded on the first draft written, not at start. */
let toDraft: typeof MarkdownToDraft | undefined;
function markdownToDraft(...args: Parameters<typeof MarkdownToDraft>): ReturnType<typeof MarkdownToDraft> {
  toDraft ??= (
    createRequire(import.meta.url)("markdown-draft-js") as { markdownToDraft: typeof MarkdownToDraft }
  ).markdownToDraft;
  return toDraft(...args);
}

/** `markdown` as a Draft.js JSON string; "" stays "" (an empty field). */
export function draftJsOf(markdown: string): string {
  if (markdown.trim() === "") return "";
  const raw = markdownToDraft(markdown.replace(/\r\n?/g, "\n"), { preserveNewlines: false });
  const blocks = raw.blocks.map((block, i) => ({
    key: `m${i.toString(36).padStart(4, "0")}`,
    text: "",
    type: "unstyled",
    depth: 0,
    inlineStyleRanges: [],
    entityRanges: [],
    data: {},
    ...block,
  }));
  return JSON.stringify({ blocks, entityMap: raw.entityMap });
}
