import { z } from "zod";
import { boundedString, identifier, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import type { LabdataApi } from "../client.js";
import { sequenceLine } from "../format/sequence-markdown.js";
import { countedPage, countedPageShape, foundLine, pastTheEnd } from "../list-page.js";
import { dnaSequenceSchema } from "../records/platform.js";

const SORTS = {
  modified_desc: "modifiedAt:desc",
  modified_asc: "modifiedAt:asc",
  name_asc: "name:asc",
  name_desc: "name:desc",
};

export const listDnaSequences = defineTool({
  name: "labdata_list_dna_sequences",
  title: "List DNA Sequences",
  description:
    "List the DNA sequences you may see on the lab data platform, newest change first, filtered by name, folder " +
    "or project. Returns name (id), length, topology, folder and modification time; bases are left out (use " +
    "labdata_get_dna_sequence or labdata_export_dna_sequence). Find folder and project ids with " +
    "labdata_list_folders and labdata_list_projects. Page with offset while has_more is true.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "sequences",
  input: {
    name: boundedString({
      description: "Only sequences whose name contains this text (case-insensitive).",
      max: 200,
    }).optional(),
    folder_id: identifier("Only sequences in this folder (id from labdata_list_folders).").optional(),
    project_id: identifier("Only sequences in this project (id from labdata_list_projects).").optional(),
    archived: z
      .enum(["exclude", "include"])
      .default("exclude")
      .describe("'exclude' (default) leaves archived sequences out; 'include' lists them too."),
    sort: z
      .enum(["modified_desc", "modified_asc", "name_asc", "name_desc"])
      .default("modified_desc")
      .describe("Order: by modification time or by name, ascending or descending (default modified_desc)."),
    ...pagingInputs,
  },
  output: countedPageShape("dna_sequences", dnaSequenceSchema.omit({ bases: true, translations: true })),
  async handler(
    { name, folder_id, project_id, archived, sort, limit, offset, response_format },
    ctx,
    api: LabdataApi,
  ) {
    const filters = {
      nameIncludes: name,
      folderId: folder_id,
      projectId: project_id,
      archiveReason:
        archived === "include" ? ("ANY_ARCHIVED_OR_NOT_ARCHIVED" as const) : ("NOT_ARCHIVED" as const),
      sort: SORTS[sort],
    };
    const { items, total, exact } = await api.listSequences(filters, offset, limit, ctx);
    const page = countedPage(
      "dna_sequences",
      { items: items.map(({ bases: _bases, translations: _translations, ...rest }) => rest), total, exact },
      offset,
    );
    return pageReply(page, response_format, () => {
      if (total === 0) return "No DNA sequences match these filters.";
      if (items.length === 0) return pastTheEnd("DNA sequences", page);
      return markdown(
        heading(1, "DNA sequences"),
        foundLine("sequences", page),
        items.map(sequenceLine),
        moreLine(page),
      );
    });
  },
});
