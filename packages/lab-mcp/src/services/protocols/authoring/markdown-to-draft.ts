// Markdown -> a Draft.js raw state in time linear in the text, even on hostile input.
// markdown-draft-js did this in quadratic time twice over: it measured the whole block text again at
// every styled span, and remarkable searches the rest of a paragraph for the closer of every unclosed
// `*`, `_`, `~~` or `[`. Here the blocks and ranges are built with a running length, and remarkable's
// closer searches share a budget proportional to the text: once it is spent, a mark still open stays
// plain text. Well-formed markdown never comes near the budget (a closed span costs its own length once
// per level of nesting, and remarkable nests at most 20 levels).
import { createRequire } from "node:module";
import type { Remarkable, Token } from "remarkable";

/** remarkable is loaded on the first draft written, not at start (most servers never write one). */
let RemarkableClass: typeof Remarkable | undefined;
function loadRemarkable(): typeof Remarkable {
  RemarkableClass ??= (createRequire(import.meta.url)("remarkable") as { Remarkable: typeof Remarkable })
    .Remarkable;
  return RemarkableClass;
}

/** Closer-search steps allowed per character of the text (well-formed text takes about one per character and level of nesting). */
const STEPS_PER_CHAR = 4;
const STEPS_FLOOR = 20_000;

export interface DraftBlock {
  type: string;
  text: string;
  depth: number;
  inlineStyleRanges: Array<{ offset: number; length: number; style: string }>;
  entityRanges: Array<{ offset: number; length: number; key: number }>;
  data?: Record<string, unknown>;
}

export interface RawDraft {
  blocks: DraftBlock[];
  entityMap: Record<string, { type: string; mutability: string; data: Record<string, unknown> }>;
}

const STYLES: Record<string, string> = { strong: "BOLD", em: "ITALIC", del: "STRIKETHROUGH" };
const HEADINGS = ["one", "two", "three", "four", "five", "six"];

/** A parser whose closer searches stop (closer not found) once `steps` are spent. */
function meteredParser(steps: number): Remarkable {
  const md = new (loadRemarkable())();
  md.block.ruler.disable("table");
  const skip = md.inline.skipToken.bind(md.inline);
  let left = steps;
  md.inline.skipToken = (state) => {
    if (left <= 0) {
      state.pos = state.posMax;
      return;
    }
    left--;
    skip(state);
  };
  return md;
}

/** Length as Draft.js counts it: code points. */
function lengthOf(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** The text, styles and links of one inline token, in one pass. */
function inline(
  token: Token,
  entityMap: RawDraft["entityMap"],
  keys: { next: number },
  block: DraftBlock,
): void {
  const parts: string[] = [];
  let at = 0;
  const open = new Map<string, DraftBlock["inlineStyleRanges"]>();
  const links: DraftBlock["entityRanges"] = [];
  const styles: DraftBlock["inlineStyleRanges"] = [];
  const entities: DraftBlock["entityRanges"] = [];
  const add = (text: string) => {
    parts.push(text);
    at += lengthOf(text);
  };
  for (const child of token.children ?? []) {
    const name = child.type.replace(/_(open|close)$/, "");
    const style = STYLES[name];
    if (child.type === "text") add(child.content ?? "");
    else if (child.type === "softbreak" || child.type === "hardbreak") add("\n");
    else if (child.type === "code") {
      const range = { offset: at, length: 0, style: "CODE" };
      add(child.content ?? "");
      range.length = at - range.offset;
      styles.push(range);
    } else if (style && child.type.endsWith("_open")) {
      const range = { offset: at, length: 0, style };
      styles.push(range);
      const same = open.get(style);
      if (same) same.push(range);
      else open.set(style, [range]);
    } else if (style && child.type.endsWith("_close")) {
      for (const range of open.get(style) ?? []) range.length = at - range.offset;
      open.delete(style);
    } else if (child.type === "link_open") {
      const key = keys.next++;
      entityMap[key] = { type: "LINK", mutability: "MUTABLE", data: { url: child.href, href: child.href } };
      const range = { offset: at, length: 0, key };
      entities.push(range);
      links.push(range);
    } else if (child.type === "link_close") {
      const range = links.pop();
      if (range) range.length = at - range.offset;
    }
  }
  block.text = parts.join("");
  block.inlineStyleRanges = styles;
  block.entityRanges = entities;
}

function blockOf(token: Token, listType: string): DraftBlock | undefined {
  const empty = { text: "", depth: token.level > 0 ? Math.floor(token.level / 2) : 0 };
  const ranges = { inlineStyleRanges: [], entityRanges: [] };
  switch (token.type) {
    case "paragraph_open":
      return { type: "unstyled", ...empty, ...ranges };
    case "blockquote_open":
      return { type: "blockquote", ...empty, ...ranges };
    case "list_item_open":
      return { type: listType, ...empty, ...ranges };
    case "heading_open":
      return { type: `header-${HEADINGS[(token.hLevel ?? 1) - 1] ?? "six"}`, ...empty, ...ranges };
    case "fence":
      return {
        type: "code-block",
        ...empty,
        ...ranges,
        text: (token.content ?? "").replace(/\n$/, ""),
        data: { language: token.params ?? "" },
      };
    default:
      return undefined;
  }
}

/** `markdown` as a Draft.js raw state: paragraphs, headings, lists, quotes, fences; bold, italic, code, links. */
export function markdownToDraft(markdown: string): RawDraft {
  const tokens = meteredParser(STEPS_FLOOR + STEPS_PER_CHAR * markdown.length).parse(markdown, {});
  const blocks: DraftBlock[] = [];
  const entityMap: RawDraft["entityMap"] = {};
  const keys = { next: 0 };
  let listType = "unordered-list-item";
  for (const token of tokens) {
    if (token.type === "bullet_list_open") listType = "unordered-list-item";
    else if (token.type === "ordered_list_open") listType = "ordered-list-item";
    const last = blocks.at(-1);
    if (token.type === "inline") {
      if (last) inline(token, entityMap, keys, last);
      continue;
    }
    const block = blockOf(token, listType);
    if (!block) continue;
    // Draft.js has one level of blocks: a block inside a quote or a list item continues the one before it
    // (a copy once that one has text), as markdown-draft-js did.
    if (token.level === 0 || token.type === "list_item_open") blocks.push(block);
    else if (last?.text) blocks.push({ ...last });
  }
  if (blocks.length === 0)
    blocks.push({ type: "unstyled", text: "", depth: 0, inlineStyleRanges: [], entityRanges: [] });
  return { blocks, entityMap };
}
