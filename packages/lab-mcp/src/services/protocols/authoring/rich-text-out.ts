// Rich text the agent writes (markdown) in the form the repository takes: a Draft.js raw state serialised
// into a JSON string, its default rich-text form (fact sheet §6). markdown-draft-js does the parsing
// (paragraphs, lists, headings, bold, italic, code, links); each block then gets the `key` and `data` a
// raw state carries, which that library leaves out.
import { markdownToDraft } from "markdown-draft-js";

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
