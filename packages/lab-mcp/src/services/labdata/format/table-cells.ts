// Markdown tables: cells on one line, pipes escaped, so a cell can never break the table.
import { oneLine } from "../../../core/untrusted-text.js";

export function cell(value: string): string {
  return oneLine(value).replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();
}

export function markdownTable(header: string[], rows: string[][]): string[] {
  const width = header.length;
  const pad = (row: string[]) => Array.from({ length: width }, (_, i) => cell(row[i] ?? ""));
  return [
    `| ${pad(header).join(" | ")} |`,
    `|${" --- |".repeat(width)}`,
    ...rows.map((row) => `| ${pad(row).join(" | ")} |`),
  ];
}
