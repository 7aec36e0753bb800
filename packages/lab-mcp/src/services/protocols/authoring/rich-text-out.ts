// Rich text the agent writes (markdown) in the form the repository takes: a Draft.js raw state serialised
// into a JSON string, its default rich-text form (fact sheet §6). markdown-to-draft.ts does the parsing
// (paragraphs, lists, headings, bold, italic, code, links) in linear time; each block then gets the `key`
// and `data` a raw state carries.
import { markdownToDraft } from "./markdown-to-draft.js";

/** `markdown` as a Draft.js JSON string; "" stays "" (an empty field). */
export function draftJsOf(markdown: string): string {
  if (markdown.trim() === "") return "";
  const raw = markdownToDraft(markdown.replace(/\r\n?/g, "\n"));
  const blocks = raw.blocks.map((block, i) => ({
    key: `m${i.toString(36).padStart(4, "0")}`,
    text: block.text,
    type: block.type,
    depth: block.depth,
    inlineStyleRanges: block.inlineStyleRanges,
    entityRanges: block.entityRanges,
    data: block.data ?? {},
  }));
  return JSON.stringify({ blocks, entityMap: raw.entityMap });
}
