// Output helpers. Markdown is for a model with little context: headings, short lists, ids next to
// names, UTC times, nothing empty. JSON is complete and indented. Text in a heading, a name or a field
// value may come from others: it is kept on its line (untrusted-text.ts says why).
import { oneLine } from "./untrusted-text.js";

export function heading(level: 1 | 2 | 3 | 4, text: string): string {
  return `${"#".repeat(level)} ${oneLine(text)}`;
}

/** "Name (id)": the display name followed by the identifier the other tools take. */
export function nameWithId(name: string, id: string | number): string {
  return `${oneLine(name)} (${oneLine(String(id))})`;
}

/** A human-readable UTC timestamp, e.g. "2026-11-22 14:03 UTC". Unparseable input is returned as is. */
export function utcTime(value: Date | string | number): string {
  const date = value instanceof Date ? value : new Date(typeof value === "number" ? value : value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "- label: value" lines, leaving out values that are missing or empty. */
export function fieldList(fields: Record<string, string | number | boolean | null | undefined>): string[] {
  return Object.entries(fields)
    .filter(([, value]) => value !== undefined && value !== null && value !== "")
    .map(([label, value]) => `- **${label}**: ${oneLine(String(value))}`);
}

export function bulletList(items: string[]): string[] {
  return items.map((item) => `- ${oneLine(item)}`);
}

/** Cuts long text (bases, step bodies) and says how to get the rest. */
export function truncate(text: string, maxLength: number, howToGetTheRest: string): string {
  if (text.length <= maxLength) return text;
  return `${text.slice(0, maxLength)}… (${text.length - maxLength} more characters; ${howToGetTheRest})`;
}

/** Markdown blocks separated by blank lines; empty blocks are dropped. */
export function markdown(...blocks: Array<string | string[] | undefined | false>): string {
  return blocks
    .filter(
      (block): block is string | string[] => Boolean(block) && (!Array.isArray(block) || block.length > 0),
    )
    .map((block) => (Array.isArray(block) ? block.join("\n") : block))
    .join("\n\n");
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
