import { boundedString, pagingInputs } from "../../../core/inputs.js";
import { heading, json, markdown, utcTime } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import * as notebook from "../api/notebook.js";
import type { LabdataApi } from "../client.js";
import { nameAndId } from "../format/labels.js";
import { countedPage, countedPageShape, howMany, thereAre } from "../list-page.js";
import { type EntryTemplate, entryTemplateSchema } from "../records/notebook.js";

function templateLine(template: EntryTemplate): string {
  const days = (template.days ?? []).map((day) => day.title?.trim() || `day ${day.day ?? "?"}`);
  const facts = [
    days.length > 0 && `${days.length} ${days.length === 1 ? "day" : "days"} (${days.join(", ")})`,
    template.templateCollectionId && `collection ${template.templateCollectionId}`,
    template.modifiedAt && `modified ${utcTime(template.modifiedAt)}`,
  ].filter(Boolean);
  return `- **${nameAndId(template.name, template.id)}**${facts.length > 0 ? `: ${facts.join("; ")}` : ""}`;
}

export const listEntryTemplates = defineTool({
  name: "labdata_list_entry_templates",
  title: "List Notebook Entry Templates",
  description:
    "List the notebook entry templates you may use, by name: name (id), their days and collection. Use a " +
    "template id with labdata_create_entry to start a new entry from it. Page with offset while has_more is true.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "notebook",
  input: {
    name: boundedString({
      description: "Only templates whose name contains this text (case-insensitive).",
      max: 200,
    }).optional(),
    ...pagingInputs,
  },
  output: countedPageShape("entry_templates", entryTemplateSchema),
  async handler({ name, limit, offset, response_format }, ctx, api: LabdataApi) {
    const { items, total, exact } = await notebook.listEntryTemplates(api, name, offset, limit, ctx);
    const page = countedPage("entry_templates", { items, total, exact }, offset);
    if (response_format === "json") return reply(page, json(page));
    if (total === 0)
      return reply(page, name ? `No entry templates match '${name}'.` : "You can see no entry templates.");
    if (items.length === 0)
      return reply(
        page,
        `No entry templates at offset ${offset}: ${thereAre({ total, exact })}. Use a smaller offset.`,
      );
    return reply(
      page,
      markdown(
        heading(1, "Entry templates"),
        `Found ${howMany({ total, exact })} templates (showing ${offset + 1}–${offset + items.length})`,
        items.map(templateLine),
        page.has_more && `More: call again with offset=${page.next_offset}.`,
      ),
    );
  },
});
