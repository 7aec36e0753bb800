import { boundedString, identifier } from "../../../core/inputs.js";
import { markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import * as notebook from "../api/notebook.js";
import type { LabdataApi } from "../client.js";
import { entryMarkdown } from "../format/entry-markdown.js";
import { nameAndId } from "../format/labels.js";
import { entrySchema } from "../records/notebook.js";

export const createEntry = defineTool({
  name: "labdata_create_entry",
  title: "Create Notebook Entry",
  description:
    "Create a new notebook entry in a folder you may write to, empty or from an entry template (its days, " +
    "checklists and tables are copied; find templates with labdata_list_entry_templates). You become its " +
    "author. Each call creates another entry, even with the same name. Find folder ids with labdata_list_folders.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  toolset: "notebook",
  input: {
    name: boundedString({ description: "Title of the entry, e.g. 'Cas9 screen – round 2'.", max: 200 }),
    folder_id: identifier("Folder to create it in (id from labdata_list_folders)."),
    template_id: identifier(
      "Entry template to start from (id from labdata_list_entry_templates).",
    ).optional(),
  },
  output: entrySchema.shape,
  async handler({ name, folder_id, template_id }, ctx, api: LabdataApi) {
    const created = await notebook.createEntry(
      api,
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
