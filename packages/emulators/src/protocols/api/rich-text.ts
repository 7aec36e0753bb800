// Rich-text fields (description, guidelines, step text) in the forms the real v4 API sends them (fact
// sheet §4.1, §6): a Draft.js raw state serialised into a JSON string by default, or HTML or markdown when
// `content_format` asks. The emulator keeps plain text; each line becomes a block or a paragraph.
// Amounts and durations become Draft.js entities (§6: `amount`, `duration`, values as strings, `unit` a
// numeric unit id); the block text keeps the readable words the entity covers.

import { escapeHtml } from "../../common/html.js";

export type RichFormat = "json" | "html" | "markdown";

/** `content_format` values the real service documents (§4.1); others (e.g. "md") fall back to the default. */
export function contentFormatOf(value: string | null): RichFormat | undefined {
  return value === "json" || value === "html" || value === "markdown" ? value : undefined;
}

// Unit ids of the emulator's own table (the real ids come from GET /api/v1/units, §6: not recorded).
const UNIT_IDS: Record<string, number> = {
  nL: 1,
  µL: 2,
  µl: 2,
  uL: 2,
  mL: 3,
  ml: 3,
  L: 4,
  ng: 5,
  µg: 6,
  mg: 7,
  g: 8,
};
const SECONDS_PER: Record<string, number> = { s: 1, sec: 1, min: 60, h: 3600 };

const AMOUNT = /(\d+(?:[.,]\d+)*)\s?(nL|µL|µl|uL|mL|ml|L|ng|µg|mg|g)(?![\p{L}\d])/gu;
const DURATION = /(\d+(?:\.\d+)?)\s?(s|sec|min|h)(?![\p{L}\d])/gu;

interface DraftEntity {
  type: "amount" | "duration";
  mutability: "IMMUTABLE";
  data: Record<string, string | number>;
}

interface Found {
  offset: number;
  length: number;
  entity: DraftEntity;
}

function findEntities(line: string): Found[] {
  const found: Found[] = [];
  for (const m of line.matchAll(AMOUNT)) {
    const [whole, amount = "", unit = ""] = m;
    found.push({
      offset: m.index,
      length: whole.length,
      entity: {
        type: "amount",
        mutability: "IMMUTABLE",
        data: { amount: amount.replaceAll(",", ""), unit: UNIT_IDS[unit] ?? 0, title: "" },
      },
    });
  }
  for (const m of line.matchAll(DURATION)) {
    const [whole, value = "", unit = ""] = m;
    if (found.some((f) => m.index < f.offset + f.length && f.offset < m.index + whole.length)) continue;
    const seconds = Number(value) * (SECONDS_PER[unit] ?? 1);
    found.push({
      offset: m.index,
      length: whole.length,
      entity: { type: "duration", mutability: "IMMUTABLE", data: { duration: String(seconds), title: "" } },
    });
  }
  return found.sort((a, b) => a.offset - b.offset);
}

// Draft.js offsets count UTF-16 code units, as JavaScript strings do.
export function toDraftJs(text: string): string {
  const entityMap: Record<string, DraftEntity> = {};
  let nextKey = 0;
  const blocks = text.split("\n").map((line, index) => ({
    key: `b${index.toString(36).padStart(4, "0")}`,
    text: line,
    type: "unstyled",
    depth: 0,
    inlineStyleRanges: [],
    entityRanges: findEntities(line).map((found) => {
      const key = nextKey++;
      entityMap[String(key)] = found.entity;
      return { offset: found.offset, length: found.length, key };
    }),
    data: {},
  }));
  return JSON.stringify({ blocks, entityMap });
}

function toHtml(text: string): string {
  const paragraphs = text.split("\n").map((line) => `<p>${escapeHtml(line)}</p>`);
  return `<div class = "text-blocks">${paragraphs.join("")}</div>`;
}

const LIST_LINE = /^\s*(- |\d+\. )/;

// Each line a paragraph; list items that follow one another stay one list.
function toMarkdown(text: string): string {
  const lines = text.split("\n");
  return lines
    .map((line, i) =>
      i === 0 ? line : `${LIST_LINE.test(line) && LIST_LINE.test(lines[i - 1] ?? "") ? "\n" : "\n\n"}${line}`,
    )
    .join("");
}

/** `text` in `format`; empty text stays "" in every format, as the real service sends empty fields. */
export function richText(text: string, format: RichFormat | "plain"): string {
  if (text === "" || format === "plain") return text;
  if (format === "json") return toDraftJs(text);
  return format === "html" ? toHtml(text) : toMarkdown(text);
}
