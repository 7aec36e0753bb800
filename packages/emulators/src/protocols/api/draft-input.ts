// Rich text a client writes (description, guidelines, step text): a Draft.js raw state serialised into a
// JSON string (the form the real service takes and sends by default, fact sheet §6), or plain text. The
// emulator keeps plain text, one line a block: list items keep their "- " or "1. " and headings their
// "#"s, bold, italic and code their markdown marks, links their [text](url), so that what was written
// reads back the same.

interface RawBlock {
  text: string;
  type: string;
  depth: number;
  inlineStyleRanges: Array<{ offset: number; length: number; style: string }>;
  entityRanges: Array<{ offset: number; length: number; key: string }>;
}

const HEADINGS: Record<string, string> = {
  "header-one": "# ",
  "header-two": "## ",
  "header-three": "### ",
  "header-four": "#### ",
  "header-five": "##### ",
  "header-six": "###### ",
};
const MARKS: Record<string, string> = { BOLD: "**", ITALIC: "_", CODE: "`" };

/** What the stored text of a written rich-text value is; undefined for a value that is not text. */
export function storedText(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const document = parseDraft(value);
  return document ? draftText(document) : value;
}

function parseDraft(value: string): { blocks: RawBlock[]; links: Map<string, string> } | undefined {
  if (!value.trimStart().startsWith("{")) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.blocks)) return undefined;
  const blocks = parsed.blocks.filter(isRecord).map(
    (block): RawBlock => ({
      text: typeof block.text === "string" ? block.text : "",
      type: typeof block.type === "string" ? block.type : "unstyled",
      depth: typeof block.depth === "number" ? Math.max(0, Math.min(4, Math.trunc(block.depth))) : 0,
      inlineStyleRanges: rangesOf(block.inlineStyleRanges).map((r) => ({ ...r, style: String(r.style) })),
      entityRanges: rangesOf(block.entityRanges).map((r) => ({ ...r, key: String(r.key) })),
    }),
  );
  const links = new Map<string, string>();
  if (isRecord(parsed.entityMap)) {
    for (const [key, entity] of Object.entries(parsed.entityMap)) {
      if (!isRecord(entity) || String(entity.type).toUpperCase() !== "LINK" || !isRecord(entity.data))
        continue;
      const url = entity.data.url ?? entity.data.href;
      if (typeof url === "string") links.set(key, url);
    }
  }
  return { blocks, links };
}

function draftText({ blocks, links }: { blocks: RawBlock[]; links: Map<string, string> }): string {
  let ordered = 0;
  return blocks
    .map((block) => {
      ordered = block.type === "ordered-list-item" ? ordered + 1 : 0;
      const indent = "  ".repeat(block.depth);
      const text = inlineText(block, links);
      if (block.type === "unordered-list-item") return `${indent}- ${text}`;
      if (block.type === "ordered-list-item") return `${indent}${ordered}. ${text}`;
      if (block.type === "blockquote") return `> ${text}`;
      return `${HEADINGS[block.type] ?? ""}${text}`;
    })
    .join("\n");
}

/** The block's text with its marks and links written in markdown. */
function inlineText(block: RawBlock, links: Map<string, string>): string {
  // Offsets count UTF-16 code units, as JavaScript strings do.
  const chars = block.text.split("");
  const before: string[] = chars.map(() => "");
  const after: string[] = chars.map(() => "");
  const mark = (offset: number, length: number, open: string, close: string) => {
    if (length <= 0 || offset < 0 || offset + length > chars.length) return;
    before[offset] += open;
    after[offset + length - 1] = close + after[offset + length - 1];
  };
  for (const range of block.inlineStyleRanges) {
    const marker = MARKS[range.style];
    if (marker) mark(range.offset, range.length, marker, marker);
  }
  for (const range of block.entityRanges) {
    const url = links.get(range.key);
    if (url) mark(range.offset, range.length, "[", `](${url})`);
  }
  return chars.map((ch, i) => `${before[i]}${ch}${after[i]}`).join("");
}

function rangesOf(value: unknown): Array<Record<string, unknown> & { offset: number; length: number }> {
  if (!Array.isArray(value)) return [];
  return value
    .filter(isRecord)
    .filter(
      (r): r is Record<string, unknown> & { offset: number; length: number } =>
        typeof r.offset === "number" && typeof r.length === "number",
    );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
