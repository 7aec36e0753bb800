import { z } from "zod";
import { boundedString, identifier, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { partialNote } from "../api/filtered-list.js";
import * as notebook from "../api/notebook.js";
import type { LabdataClient } from "../client.js";
import { daySpanInput, spanRange } from "../created-filters.js";
import { entryLine } from "../format/entry-markdown.js";
import { countedPage, countedPageShape, foundLine } from "../list-page.js";
import { FOLDER, pastedId } from "../pasted-id.js";
import { personId, personInput } from "../person-ref.js";
import { entryBrief } from "../records/brief.js";

export const listEntries = defineTool({
  name: "labdata_list_entries",
  title: "List Notebook Entries",
  description:
    "Notebook entries (what scientists recorded), newest change first, by name, project, folder, author " +
    "or date changed. labdata_get_entry reads one.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "notebook",
  input: {
    name: boundedString({
      description: "Name contains.",
      max: 200,
    }).optional(),
    project_id: identifier("Project id.").optional(),
    folder_id: pastedId("Folder: id or its page's address.", FOLDER).optional(),
    author: personInput("Author: 'me', a user id or name.").optional(),
    modified: daySpanInput.optional(),
    archived: z.enum(["exclude", "include"]).default("exclude").describe("'include': archived too."),
    ...pagingInputs,
  },
  output: countedPageShape("entries", entryBrief),
  async handler(args, ctx, client: LabdataClient) {
    const { limit, offset, response_format } = args;
    const authorId = await personId(
      client,
      args.author,
      { tool: "labdata_list_entries", field: "author" },
      ctx,
    );
    const { items, total, exact, complete } = await notebook.listEntries(
      client,
      {
        nameIncludes: args.name,
        projectId: args.project_id,
        folderId: args.folder_id,
        authorIds: authorId ? [authorId] : undefined,
        modifiedAt: spanRange(args.modified),
        archived: args.archived === "include",
      },
      offset,
      limit,
      ctx,
    );
    const page = countedPage(
      "entries",
      { items: items.map(({ days: _days, ...entry }) => entry), total, exact },
      offset,
    );
    return pageReply(page, response_format, () => {
      const incomplete = !complete && partialNote("entry", "project_id or modified");
      if (total === 0) return markdown("No notebook entries match these filters.", incomplete);
      if (items.length === 0) return pastTheEnd("notebook entries", page);
      return markdown(
        heading(1, "Notebook entries"),
        foundLine("entries", page),
        items.map(entryLine),
        moreLine(page),
        incomplete,
      );
    });
  },
});
