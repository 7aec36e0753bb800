import { RemoteStatusError } from "../../../core/errors.js";
import { fieldsInput, identifier, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd, withFields } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import * as assays from "../api/assays.js";
import { partialNote } from "../api/filtered-list.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
import { createdInput } from "../created-filters.js";
import { resolveEntity } from "../entity-ref.js";
import { assayTables, runLabel, runNumber, runNumberOf } from "../format/assay-markdown.js";
import { nameAndId } from "../format/labels.js";
import { countedPage, countedPageShape, foundLine } from "../list-page.js";
import { ENTITY, pastedId, runInput } from "../pasted-id.js";
import { assayBrief } from "../records/brief.js";
import { ASSAY_RESULT_FIELDS } from "../records/field-names.js";
import type { AssayRun } from "../records/notebook.js";
import { resultsChartView } from "../views/index.js";

/**
 * The runs `run` names: a run number ("12", "run 12") is looked for among the runs you may see; anything
 * else is read as a run id first, then looked for as a run name.
 */
async function runsNamed(client: LabdataClient, run: string, ctx: LabdataCall): Promise<AssayRun[]> {
  if (!/^\s*(run\s*)?#?\s*\d+\s*$/i.test(run) && /^[A-Za-z0-9_-]+$/.test(run)) {
    try {
      return [await assays.getAssayRun(client, run, ctx)];
    } catch (error) {
      if (!(error instanceof RemoteStatusError && (error.status === 404 || error.status === 400)))
        throw error;
    }
  }
  const number = runNumberOf(run).toLowerCase();
  const schemas = await assays.listAssaySchemas(client, "run", ctx);
  const { items } = await assays.listAssayRuns(
    client,
    {
      schemaIds: schemas.flatMap((s) => (s.id ? [s.id] : [])),
      keep: (candidate) => candidate.id === run || runNumber(candidate)?.toLowerCase() === number,
    },
    0,
    20,
    ctx,
  );
  return items;
}

export const listAssayResults = defineTool({
  name: "labdata_list_assay_results",
  title: "List Assay Results",
  description: "Measured assay results by run, schema, project, entity or dates; units in headers.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "results",
  view: resultsChartView,
  input: {
    run: runInput("Run number, id or address.").optional(),
    schema_id: identifier("Schema id.").optional(),
    entity_id: pastedId("Entity: id, registry id or its page's address.", ENTITY).optional(),
    project_id: identifier("Project id.").optional(),
    created: createdInput.optional(),
    ...pagingInputs,
    fields: fieldsInput(ASSAY_RESULT_FIELDS),
  },
  // The page's schemas (their fields and units) and the runs asked for are in the json answer.
  output: countedPageShape("assay_results", assayBrief),
  async handler(args, ctx, client: LabdataClient) {
    const { limit, offset, response_format } = args;
    const runs: AssayRun[] = args.run ? await runsNamed(client, args.run, ctx) : [];
    const all = await assays.listAssaySchemas(client, "result", ctx);
    const empty = {
      ...countedPage("assay_results", { items: [], total: 0, exact: true }, offset),
      schemas: [],
      runs,
    };
    if (args.run && runs.length === 0) {
      return pageReply(
        empty,
        args.fields ? "json" : response_format,
        () => `No assay run '${args.run}' that you can see.`,
      );
    }
    const { items, total, exact, complete } = await assays.listAssayResults(
      client,
      {
        schemaIds: args.schema_id ? [args.schema_id] : all.flatMap((s) => (s.id ? [s.id] : [])),
        runIds: runs.length > 0 ? runs.flatMap((r) => (r.id ? [r.id] : [])) : undefined,
        entityId: args.entity_id && (await resolveEntity(client, args.entity_id, undefined, ctx)).id,
        projectId: args.project_id,
        created: args.created,
      },
      offset,
      limit,
      ctx,
    );
    const used = new Set(items.map((result) => result.schema?.id));
    const page = withFields(
      {
        ...countedPage("assay_results", { items, total, exact }, offset),
        schemas: all.filter((s) => used.has(s.id)),
        runs,
      },
      "assay_results",
      args.fields,
    );
    return pageReply(page, args.fields ? "json" : response_format, () => {
      const ofRuns = runs.length > 0 && `Run: ${runs.map((r) => nameAndId(runLabel(r), r.id)).join(", ")}`;
      const incomplete = !complete && partialNote("result", "schema_id, run or created");
      if (total === 0) return markdown("No assay results match these filters.", ofRuns, incomplete);
      if (items.length === 0) return pastTheEnd("assay results", page);
      return markdown(
        heading(1, "Assay results"),
        ofRuns,
        foundLine("results", page),
        assayTables(
          "result",
          items,
          new Map(all.map((schema) => [schema.id ?? "", schema])),
          runs.length === 1,
        ),
        moreLine(page),
        incomplete,
      );
    });
  },
});
