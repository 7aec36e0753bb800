import { boundedString, identifier, pagingInputs, takesNumberAsText } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import * as assays from "../api/assays.js";
import { partialNote } from "../api/filtered-list.js";
import type { LabdataClient } from "../client.js";
import { checkDayRange, dateInput } from "../date-input.js";
import { assayTables, runNumber, runNumberOf } from "../format/assay-markdown.js";
import { countedPage, countedPageShape, foundLine } from "../list-page.js";
import { ENTRY, pastedId } from "../pasted-id.js";
import { assayBrief } from "../records/brief.js";

export const listAssayRuns = defineTool({
  name: "labdata_list_assay_runs",
  title: "List Assay Runs",
  description:
    "List assay runs (instrument or experiment runs) by number, schema, project, notebook entry or date.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "results",
  input: {
    run: takesNumberAsText(
      boundedString({
        description: "Number or name, e.g. 'run 12'.",
        max: 100,
      }),
    ).optional(),
    schema_id: identifier("Schema id.").optional(),
    project_id: identifier("Project id.").optional(),
    entry_id: pastedId("Notebook entry: id or its page's address.", ENTRY).optional(),
    created_after: dateInput("Created on or after.").optional(),
    created_before: dateInput("Created on or before.").optional(),
    ...pagingInputs,
  },
  // The page's schemas (their fields and units) are in the json answer.
  output: countedPageShape("assay_runs", assayBrief),
  async handler(args, ctx, client: LabdataClient) {
    const { limit, offset, response_format } = args;
    checkDayRange(
      "labdata_list_assay_runs",
      ["created_after", args.created_after],
      ["created_before", args.created_before],
    );
    const all = await assays.listAssaySchemas(client, "run", ctx);
    const schemaIds = args.schema_id ? [args.schema_id] : all.flatMap((s) => (s.id ? [s.id] : []));
    const wanted = args.run ? runNumberOf(args.run).toLowerCase() : undefined;
    const { items, total, exact, complete } = await assays.listAssayRuns(
      client,
      {
        schemaIds,
        projectId: args.project_id,
        entryId: args.entry_id,
        createdAfter: args.created_after,
        createdBefore: args.created_before,
        keep: wanted ? (run) => run.id === args.run || runNumber(run)?.toLowerCase() === wanted : undefined,
      },
      offset,
      limit,
      ctx,
    );
    const used = new Set(items.map((run) => run.schema?.id));
    const schemas = all.filter((schema) => used.has(schema.id));
    const page = { ...countedPage("assay_runs", { items, total, exact }, offset), schemas };
    return pageReply(page, response_format, () => {
      const incomplete = !complete && partialNote("run", "schema_id or dates");
      if (total === 0) return markdown("No assay runs match these filters.", incomplete);
      if (items.length === 0) return pastTheEnd("assay runs", page);
      return markdown(
        heading(1, "Assay runs"),
        foundLine("runs", page),
        assayTables("run", items, new Map(all.map((schema) => [schema.id ?? "", schema]))),
        moreLine(page),
        incomplete,
      );
    });
  },
});
