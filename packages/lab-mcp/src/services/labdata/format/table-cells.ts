// Markdown tables: each cell one line, escaped so that a cell can never end a cell (core's tableCell).
import { tableCell } from "../../../core/untrusted-text.js";

export const cell = tableCell;
export function markdownTable(header: string[], rows: string[][]): string[] {
  const width = header.length;
  const pad = (row: string[]) => Array.from({ length: width }, (_, i) => cell(row[i] ?? ""));
  return [
    `| ${pad(header).join(" | ")} |`,
    `|${" --- |".repeat(width)}`,
    ...rows.map((row) => `| ${pad(row).join(" | ")} |`),
  ];
}
