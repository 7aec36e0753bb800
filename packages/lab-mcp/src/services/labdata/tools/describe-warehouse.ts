import { z } from "zod";
import { boundedString, pagingInputs } from "../../../core/inputs.js";
import { pageReply } from "../../../core/page-reply.js";
import { pageOf, pageShape } from "../../../core/paging.js";
import { defineTool } from "../../../core/tool.js";
import type { LabdataClient } from "../client.js";
import { catalogFits, catalogMarkdown } from "../format/warehouse-markdown.js";

const columnSchema = z.object({
  name: z.string(),
  type: z.string(),
  display_name: z.string().optional(),
  unit: z.string().optional(),
  links_to: z.string().optional(),
  sample: z.string().optional(),
});

const tableSchema = z.object({
  name: z.string(),
  display_name: z.string().optional(),
  description: z.string().optional(),
  raw_table: z.string().optional(),
  columns: z.array(columnSchema),
});

/** JSON answers are held to the same size as markdown ones (about 4,000 tokens). */
const JSON_CHARACTERS = 14_000;

export const describeWarehouse = defineTool({
  name: "labdata_describe_warehouse",
  title: "Describe the Lab Data Warehouse",
  description:
    "The warehouse tables you can read: columns, types, display names, units, links (→ table), sample values, for labdata_query_warehouse.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "warehouse",
  input: {
    search: boundedString({
      description: "Only tables whose name or columns contain this word.",
      max: 100,
    }).optional(),
    ...pagingInputs,
  },
  output: pageShape("tables", tableSchema),
  async handler({ search, limit, offset, response_format }, ctx, client: LabdataClient) {
    const fits =
      response_format === "json"
        ? (tables: unknown[]) => JSON.stringify(tables, null, 2).length <= JSON_CHARACTERS
        : catalogFits;
    const { total, tables } = await client.warehouse.describe(search, offset, limit, fits, ctx);
    const page = pageOf("tables", tables, total, offset);
    return pageReply(page, response_format, () => catalogMarkdown(tables, page, search));
  },
});
