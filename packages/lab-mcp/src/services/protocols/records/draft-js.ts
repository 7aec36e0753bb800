// A Draft.js raw document (the repository's default rich-text form, fact sheet section 6) as readable
// markdown. Hand-written: the repository's entities are its own (amount, duration, temperature, reagents,
// tables...), keeping their values in `data` (what text their ranges cover is not recorded). The npm converters
// (draftjs-to-markdown, markdown-draft-js) handle links and images and leave every other entity type to
// a callback given by the caller, so each kind below would be our code anyway, on top of a dependency.
import { tableCell } from "../../../core/untrusted-text.js";

interface RawBlock {
  text: string;
  type: string;
  depth: number;
  entityRanges: Array<{ offset: number; length: number; key: string }>;
}

type EntityData = Record<string, unknown>;
interface RawEntity {
  type: string;
  data: EntityData;
}

/** The blocks and entities of a parsed value, or undefined when it is not a Draft.js document. */
export function draftDocumentOf(
  value: unknown,
): { blocks: RawBlock[]; entities: Map<string, RawEntity> } | undefined {
  if (!isRecord(value) || !Array.isArray(value.blocks)) return undefined;
  const blocks = value.blocks.filter(isRecord).map(
    (block): RawBlock => ({
      text: typeof block.text === "string" ? block.text : "",
      type: typeof block.type === "string" ? block.type : "unstyled",
      depth: typeof block.depth === "number" && block.depth > 0 ? Math.min(block.depth, 8) : 0,
      entityRanges: (Array.isArray(block.entityRanges) ? block.entityRanges : [])
        .filter(isRecord)
        .filter((r) => typeof r.offset === "number" && typeof r.length === "number")
        .map((r) => ({ offset: r.offset as number, length: r.length as number, key: String(r.key) })),
    }),
  );
  const entities = new Map<string, RawEntity>();
  if (isRecord(value.entityMap)) {
    for (const [key, entity] of Object.entries(value.entityMap)) {
      if (!isRecord(entity)) continue;
      entities.set(key, {
        type: typeof entity.type === "string" ? entity.type.toLowerCase() : "",
        data: isRecord(entity.data) ? entity.data : {},
      });
    }
  }
  return { blocks, entities };
}

/** The document as markdown: paragraphs, list items, headings, entities written out as text. */
export function draftToMarkdown(document: NonNullable<ReturnType<typeof draftDocumentOf>>): string {
  const lines: string[] = [];
  let ordered = 0;
  for (const block of document.blocks) {
    const text = blockText(block, document.entities).trim();
    ordered = block.type === "ordered-list-item" ? ordered + 1 : 0;
    if (!text) continue;
    const indent = "  ".repeat(block.depth);
    if (block.type === "unordered-list-item") lines.push(`${indent}- ${text}`);
    else if (block.type === "ordered-list-item") lines.push(`${indent}${ordered}. ${text}`);
    else if (block.type.startsWith("header-")) lines.push(`**${text}**`);
    else if (block.type === "blockquote") lines.push(`> ${text}`);
    else if (block.type === "code-block") lines.push(`\`${text}\``);
    else lines.push(text);
  }
  // List items stay together; other blocks are paragraphs.
  return lines
    .reduce((out, line, i) => {
      const list = /^\s*(- |\d+\. )/;
      const joinTight = i > 0 && list.test(line) && list.test(lines[i - 1] as string);
      return out + (i === 0 ? "" : joinTight ? "\n" : "\n\n") + line;
    }, "")
    .trim();
}

/** A block's text with each entity's range replaced by what the entity says. */
function blockText(block: RawBlock, entities: Map<string, RawEntity>): string {
  const chars = Array.from(block.text);
  const ranges = [...block.entityRanges].sort((a, b) => a.offset - b.offset);
  let out = "";
  let at = 0;
  for (const range of ranges) {
    if (range.offset < at || range.offset > chars.length) continue;
    out += chars.slice(at, range.offset).join("");
    const covered = chars.slice(range.offset, range.offset + range.length).join("");
    const entity = entities.get(range.key);
    out += entity ? entityText(entity, covered) : covered;
    at = Math.min(chars.length, range.offset + range.length);
  }
  return (out + chars.slice(at).join("")).replace(/[\u200b\ufeff]/g, "");
}

/** Entities that carry a quantity, and the data key of their value. */
const QUANTITIES: Record<string, string> = {
  amount: "amount",
  temperature: "temperature",
  concentration: "concentration",
  centrifuge: "centrifuge",
  shaker: "shaker",
  ph: "ph",
};

/** What an entity reads as; the text it covers when that already says it or nothing better is known. */
function entityText(entity: RawEntity, covered: string): string {
  const { type, data } = entity;
  const shown = covered.trim();
  if (type === "duration") {
    const seconds = numberOf(data.duration ?? data.value);
    return seconds === undefined ? shown : withTitle(durationText(seconds), data);
  }
  const quantityKey = QUANTITIES[type];
  if (quantityKey !== undefined) {
    const value = textOf(data[quantityKey] ?? data.value);
    if (value === undefined || shown.includes(value)) return shown;
    const unit = unitOf(data);
    return withTitle(unit ? `${value} ${unit}` : value, data);
  }
  if (type === "link") {
    const url = textOf(data.url ?? data.href);
    if (!url) return shown;
    return shown && shown !== url ? `[${shown}](${url})` : url;
  }
  if (type === "image" || type === "imageblock") {
    const name = textOf(data.original_name ?? data.alt) ?? "image";
    const source = textOf(data.source ?? data.src);
    return source ? `[image: ${name}](${source})` : `[image: ${name}]`;
  }
  if (type === "file") {
    const name = textOf(data.original_name ?? data.name) ?? "file";
    const source = textOf(data.source ?? data.url);
    return source ? `[file: ${name}](${source})` : `[file: ${name}]`;
  }
  if (type === "tables") return tableText(data.data) ?? shown;
  if (type === "code_insert" || type === "command") {
    const code = textOf(data.command ?? data.code ?? data.name);
    return code ? `\`${code}\`` : shown;
  }
  if (type === "tex_formula") {
    const formula = textOf(data.formula ?? data.tex ?? data.value);
    return formula ? `$${formula}$` : shown;
  }
  // reagents, equipment, software, protocols, citation, notes, result, safety, embed...: named things.
  const name = textOf(data.name ?? data.title ?? data.text ?? data.url);
  return shown || name || "";
}

function withTitle(text: string, data: EntityData): string {
  const title = textOf(data.title);
  return title ? `${text} (${title})` : text;
}

/** A unit said in words; a bare numeric unit id (a row of /api/v1/units) is not readable, so left out. */
function unitOf(data: EntityData): string | undefined {
  for (const candidate of [data.unit_name, data.unitName, data.unit]) {
    const unit = textOf(candidate);
    if (unit && !/^\d+$/.test(unit)) return unit;
  }
  return undefined;
}

/** Seconds as "1 h 5 min 30 s". */
export function durationText(seconds: number): string {
  const whole = Math.round(seconds);
  const parts: string[] = [];
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (hours) parts.push(`${hours} h`);
  if (minutes) parts.push(`${minutes} min`);
  if (rest || parts.length === 0) parts.push(`${rest} s`);
  return parts.join(" ");
}

/** A 2-D array of cells (the `tables` entity) as a markdown table. */
function tableText(cells: unknown): string | undefined {
  if (!Array.isArray(cells)) return undefined;
  const rows = cells
    .filter(Array.isArray)
    .map((row) => row.map((cell) => tableCell(textOf(isRecord(cell) ? cell.value : cell) ?? "")));
  if (rows.length === 0) return undefined;
  const width = Math.max(...rows.map((r) => r.length));
  const line = (row: string[]) => `| ${Array.from({ length: width }, (_, i) => row[i] ?? "").join(" | ")} |`;
  const [head, ...body] = rows as [string[], ...string[][]];
  return ["", line(head), line(Array(width).fill("---")), ...body.map(line)].join("\n");
}

function numberOf(value: unknown): number | undefined {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : undefined;
}

function textOf(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
