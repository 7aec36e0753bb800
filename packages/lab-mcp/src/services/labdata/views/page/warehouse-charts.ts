// The warehouse's answers as charts: the first text-like column names the bars, each numeric column is
// one chart (its display name and unit on the axis). What cannot be drawn is said, never guessed: a
// number the structured copy keeps as text (too long to be exact in JavaScript) is left out and counted.
import type { Chart } from "./chart.js";
import { type Data, list, number, text } from "./read.js";

/** PostgreSQL's numeric types, as format_type names them. */
const NUMERIC_TYPES = new Set(["smallint", "integer", "bigint", "real", "double precision", "numeric"]);
/** Types whose values do not name anything a person would read as a bar's label. */
const NOT_LABELS = /^(boolean|json|jsonb|bytea|xml)$|\[\]$/;
/** More bars than this would be too thin to read: the rest are counted instead. */
export const MAX_BARS = 80;

export interface WarehouseCharts {
  charts: Chart[];
  /** The label column's name as shown, when one came back. */
  labels?: string;
  rows: number;
  /** Rows past MAX_BARS, not drawn. */
  undrawnRows: number;
  /** Numbers the answer kept as text (too precise to draw exactly), left out. */
  inexact: number;
}

/** Whether the structured content is a warehouse answer: columns described, rows as arrays. */
export function isWarehouseAnswer(structured: Data): boolean {
  return Array.isArray(structured.columns) && Array.isArray(structured.rows);
}

function columnName(column: Data, index: number): string {
  return text(column.display_name) ?? text(column.name) ?? `Column ${index + 1}`;
}

export function warehouseCharts(structured: Data): WarehouseCharts {
  const columns = list(structured.columns);
  const rows = (Array.isArray(structured.rows) ? structured.rows : []).filter(Array.isArray) as unknown[][];
  const typeOf = (index: number) => text(columns[index]?.type) ?? "";
  const numeric = columns.flatMap((_, index) => (NUMERIC_TYPES.has(typeOf(index)) ? [index] : []));
  const labelIndex = columns.findIndex(
    (_, index) =>
      !NUMERIC_TYPES.has(typeOf(index)) &&
      !NOT_LABELS.test(typeOf(index)) &&
      rows.some((row) => typeof row[index] === "string"),
  );
  const drawn = rows.slice(0, MAX_BARS);
  const summary = { rows: rows.length, undrawnRows: rows.length - drawn.length, inexact: 0 };
  if (labelIndex < 0 || numeric.length === 0) {
    return {
      charts: [],
      ...summary,
      ...(labelIndex >= 0 ? { labels: columnName(columns[labelIndex] ?? {}, labelIndex) } : {}),
    };
  }
  // The same label twice stays two bars, never one merged number.
  const categories: string[] = [];
  for (const [index, row] of drawn.entries()) {
    const base = text(row[labelIndex]) ?? `Row ${index + 1}`;
    let label = base;
    for (let n = 2; categories.includes(label); n++) label = `${base} (${n})`;
    categories.push(label);
  }
  const charts: Chart[] = [];
  for (const index of numeric) {
    const values = drawn.map((row) => number(row[index]));
    summary.inexact += drawn.filter((row) => typeof row[index] === "string").length;
    if (values.every((value) => value === undefined)) continue;
    const column = columns[index] ?? {};
    charts.push({
      title: columnName(column, index),
      unit: text(column.unit),
      categories,
      series: [{ name: "", values }],
    });
  }
  return { charts, labels: columnName(columns[labelIndex] ?? {}, labelIndex), ...summary };
}
