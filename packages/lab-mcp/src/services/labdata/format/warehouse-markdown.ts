// The warehouse's answers as markdown: a query's rows as one table under its display names (and
// units), with what was cut said plainly and no count the database did not give; the catalog as one
// small table per warehouse table. Cells are others' data: each kept on its row (table-cells.ts).
import { heading, markdown } from "../../../core/render.js";
import type { CatalogTable } from "../warehouse/catalog.js";
import type { Cell, ResultColumn, SelectResult } from "../warehouse/run-select.js";
import { MAX_ANSWER_BYTES, MAX_CELL_BYTES } from "../warehouse/run-select.js";
import { cell, markdownTable } from "./table-cells.js";

/** A cell longer than this is cut in the markdown (the structured copy keeps it whole). */
const SHOWN_CHARACTERS = 300;

export function columnLabel(column: Pick<ResultColumn, "name" | "display_name" | "unit">): string {
  const name = column.display_name ?? column.name;
  return column.unit ? `${name} (${column.unit})` : name;
}

function shown(value: Cell): string {
  if (value === null) return "";
  const text = String(value);
  if (text.length <= SHOWN_CHARACTERS) return text;
  return `${text.slice(0, SHOWN_CHARACTERS)}… (${text.length - SHOWN_CHARACTERS} more characters: select a part in SQL, or response_format=json)`;
}

export function queryMarkdown(result: SelectResult, maxRows: number): string {
  const { columns, rows, cut, oversized_cells } = result;
  const count = rows.length === 1 ? "1 row" : `${rows.length} rows`;
  const lines: string[] = [];
  if (!cut) lines.push(rows.length === 0 ? "The query returned no rows." : `${count}.`);
  else if (cut === "rows") {
    lines.push(
      `The first ${count} (max_rows=${maxRows}); the query has more, how many is not known. ` +
        "Aggregate (COUNT, GROUP BY) or filter in SQL, or raise max_rows.",
    );
  } else {
    lines.push(
      `The first ${count}: more would pass the answer's size limit (${Math.round(MAX_ANSWER_BYTES / 1000)} KB); ` +
        "the query may have more rows, how many is not known. Select fewer or shorter columns, aggregate, " +
        `or read on with OFFSET ${rows.length} in SQL.`,
    );
  }
  if (oversized_cells > 0) {
    lines.push(
      `${oversized_cells} ${oversized_cells === 1 ? "cell is" : "cells are"} larger than ${MAX_CELL_BYTES / 1024} KB ` +
        "and left out (shown empty): select a part of it in SQL (left(), substring()).",
    );
  }
  const table =
    columns.length > 0 && rows.length > 0
      ? markdownTable(
          columns.map(columnLabel),
          rows.map((row) => row.map(shown)),
        )
      : false;
  return markdown(...lines, table);
}

const SHORT_TYPES: Record<string, string> = {
  "timestamp with time zone": "timestamptz",
  "timestamp without time zone": "timestamp",
  "double precision": "float8",
  "character varying": "varchar",
  boolean: "bool",
  integer: "int",
};

function shortType(type: string): string {
  return SHORT_TYPES[type] ?? type.replace(/^character varying/, "varchar");
}

/** One table of the catalog: its heading, and a row per column (type, display name and unit, sample). */
export function catalogTableMarkdown(table: CatalogTable): string {
  const title = table.display_name ? `${table.name}: ${table.display_name}` : table.name;
  const about = [
    // A description is the warehouse's text: ended as a sentence so the note after it reads apart.
    table.description && cell(table.description).replace(/([^.!?])$/, "$1."),
    table.raw_table && `Archived rows too: ${table.raw_table}.`,
  ]
    .filter(Boolean)
    .join(" ");
  const rows = table.columns.map((column) => [
    column.name,
    column.links_to ? `${shortType(column.type)} → ${column.links_to}` : shortType(column.type),
    column.display_name || column.unit ? columnLabel({ ...column, name: "" }) : "",
    column.sample ?? "",
  ]);
  return markdown(heading(2, title), about, markdownTable(["column", "type", "name", "e.g."], rows));
}

export function catalogMarkdown(
  tables: CatalogTable[],
  page: { total: number; offset: number; next_offset: number | null },
  search: string | undefined,
): string {
  const what = search ? `Warehouse tables matching "${cell(search)}"` : "Warehouse tables";
  if (page.total === 0) {
    return search
      ? `No warehouse table you can read has "${cell(search)}" in its name or columns. Call again without search to list them all.`
      : "You can read no table of the warehouse.";
  }
  if (tables.length === 0) return `${what}: ${page.total} in all; offset ${page.offset} is past the end.`;
  const range = `${page.offset + 1}-${page.offset + tables.length} of ${page.total}`;
  return markdown(
    heading(1, `${what} (${range})`),
    "Query them with labdata_query_warehouse (PostgreSQL). `→ t`: the column holds an id of table t.",
    tables.map(catalogTableMarkdown).join("\n\n"),
    page.next_offset !== null && `More: call again with offset=${page.next_offset}.`,
  );
}

/** Whether the catalog's answer for `tables` stays under about 4,000 tokens. */
export function catalogFits(tables: CatalogTable[]): boolean {
  return tables.map(catalogTableMarkdown).join("\n\n").length <= 12_000;
}
