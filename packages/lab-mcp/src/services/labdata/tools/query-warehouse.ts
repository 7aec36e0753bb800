import { z } from "zod";
import { boundedInteger, boundedString, responseFormat } from "../../../core/inputs.js";
import { json } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import type { LabdataClient } from "../client.js";
import { queryMarkdown } from "../format/warehouse-markdown.js";
import { resultsChartView } from "../views/index.js";

/** A value: text (PostgreSQL's own form), a number where it converts exactly, true/false, or null. */
const cellSchema = z.unknown();

export const queryWarehouse = defineTool({
  name: "labdata_query_warehouse",
  title: "Query the Lab Data Warehouse",
  description:
    "One read-only PostgreSQL SELECT on the tenant's data warehouse, as you: counts, averages, joins across runs, results, entities, containers in one call. Tables: labdata_describe_warehouse.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "warehouse",
  view: resultsChartView,
  input: {
    sql: boundedString({
      description: "One SELECT statement (PostgreSQL); no writes, SET or locking clauses.",
      max: 20_000,
      multiline: true,
    }),
    max_rows: boundedInteger({ min: 1, max: 1000, description: "Most rows to return." }).default(100),
    response_format: responseFormat,
  },
  output: {
    columns: z
      .array(
        z.object({
          name: z.string(),
          type: z.string(),
          display_name: z.string().optional(),
          unit: z.string().optional(),
        }),
      )
      .describe("SQL name, type, the catalog's display name and unit."),
    rows: z.array(z.array(cellSchema)).describe("Values in column order."),
    cut: z.enum(["rows", "bytes"]).optional().describe("More rows exist: past max_rows, or the size limit."),
    oversized_cells: z.number().int().optional().describe("Cells too large to send (null)."),
  },
  async handler({ sql, max_rows, response_format }, ctx, client: LabdataClient) {
    const result = await client.warehouse.query(sql, max_rows, ctx);
    const { columns, rows, cut, oversized_cells } = result;
    const structured = {
      columns,
      rows,
      ...(cut ? { cut } : {}),
      ...(oversized_cells > 0 ? { oversized_cells } : {}),
    };
    return reply(structured, response_format === "json" ? json(structured) : queryMarkdown(result, max_rows));
  },
});
