import { boundedString, identifier } from "../../../core/inputs.js";
import { markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import * as notebook from "../api/notebook.js";
import type { LabdataClient } from "../client.js";
import { entryMarkdown } from "../format/entry-markdown.js";
import { nameAndId } from "../format/labels.js";
import { entryBrief } from "../records/brief.js";

export const createEntry = defineTool({
  name: "labdata_create_entry",
  title: "Create Notebook Entry",
  description:
    "Create a notebook entry in a folder, empty or from an entry template (its days, checklists and " +
    "tables copied). You are its author. Each call creates another entry.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  toolset: "writes",
  input: {
    name: boundedString({ description: "Title of the entry, e.g. 'Cas9 screen – round 2'.", max: 200 }),
    folder_id: identifier("Folder to create it in."),
    template_id: identifier("Entry template to start from.").optional(),
  },
  output: entryBrief.shape,
  async handler({ name, folder_id, template_id }, ctx, client: LabdataClient) {
    const created = await notebook.createEntry(
      client,
      { name, folderId: folder_id, ...(template_id ? { entryTemplateId: template_id } : {}) },
      ctx,
    );
    const from = template_id ? ` from template ${template_id}` : "";
    return reply(
      created,
      markdown(
        `Created notebook entry ${nameAndId(created.name ?? name, created.id)} in folder ${folder_id}${from}.`,
        entryMarkdown(created, new Map()),
      ),
    );
  },
});
