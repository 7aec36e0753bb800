import { fieldsInput, identifier, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd, withFields } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import * as assays from "../api/assays.js";
import { partialNote } from "../api/filtered-list.js";
import type { LabdataClient } from "../client.js";
import { createdInput } from "../created-filters.js";
import { assayTables, runNumber, runNumberOf } from "../format/assay-markdown.js";
import { countedPage, countedPageShape, foundLine } from "../list-page.js";
import { ENTRY, pastedId, runInput } from "../pasted-id.js";
import { creatorId, creatorInput } from "../person-ref.js";
import { assayBrief } from "../records/brief.js";
import { ASSAY_RUN_FIELDS } from "../records/field-names.js";

export const listAssayRuns = defineTool({
  name: "labdata_list_assay_runs",
  title: "List Assay Runs",
  description:
    "Assay runs (instrument or experiment runs) by number, schema, project, entry, creation date or creator.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "results",
  input: {
    run: runInput("Number or name ('run 12'), id or address.").optional(),
    schema_id: identifier("Schema id.").optional(),
    project_id: identifier("Project id.").optional(),
    entry_id: pastedId("Notebook entry: id or its page's address.", ENTRY).optional(),
    created: createdInput.optional(),
    creator: creatorInput.optional(),
    ...pagingInputs,
    fields: fieldsInput(ASSAY_RUN_FIELDS),
  },
  // The page's schemas (their fields and units) are in the json answer.
  output: countedPageShape("assay_runs", assayBrief),
  async handler(args, ctx, client: LabdataClient) {
    const { limit, offset, response_format } = args;
    const all = await assays.listAssaySchemas(client, "run", ctx);
    const schemaIds = args.schema_id ? [args.schema_id] : all.flatMap((s) => (s.id ? [s.id] : []));
    const wanted = args.run ? runNumberOf(args.run).toLowerCase() : undefined;
    const { items, total, exact, complete } = await assays.listAssayRuns(
      client,
      {
        schemaIds,
        projectId: args.project_id,
        entryId: args.entry_id,
        created: args.created,
        creatorId: await creatorId(client, args.creator, "labdata_list_assay_runs", ctx),
        keep: wanted ? (run) => run.id === args.run || runNumber(run)?.toLowerCase() === wanted : undefined,
      },
      offset,
      limit,
      ctx,
    );
    const used = new Set(items.map((run) => run.schema?.id));
    const schemas = all.filter((schema) => used.has(schema.id));
    const page = withFields(
      { ...countedPage("assay_runs", { items, total, exact }, offset), schemas },
      "assay_runs",
      args.fields,
    );
    return pageReply(page, args.fields ? "json" : response_format, () => {
      const incomplete = !complete && partialNote("run", "schema_id or created");
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
