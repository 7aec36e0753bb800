import { boundedString, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd } from "../../../core/page-reply.js";
import { heading, markdown, utcTime } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { oneLine } from "../../../core/untrusted-text.js";
import * as notebook from "../api/notebook.js";
import type { LabdataClient } from "../client.js";
import { nameAndId } from "../format/labels.js";
import { countedPage, countedPageShape, foundLine } from "../list-page.js";
import { templateBrief } from "../records/brief.js";
import type { EntryTemplate } from "../records/notebook.js";

function templateLine(template: EntryTemplate): string {
  const days = (template.days ?? []).map((day) => day.title?.trim() || `day ${day.day ?? "?"}`);
  const facts = [
    days.length > 0 && `${days.length} ${days.length === 1 ? "day" : "days"} (${days.join(", ")})`,
    template.templateCollectionId && `collection ${template.templateCollectionId}`,
    template.modifiedAt && `modified ${utcTime(template.modifiedAt)}`,
  ].filter(Boolean);
  return `- **${nameAndId(template.name, template.id)}**${facts.length > 0 ? `: ${oneLine(facts.join("; "))}` : ""}`;
}

export const listEntryTemplates = defineTool({
  name: "labdata_list_entry_templates",
  title: "List Notebook Entry Templates",
  description:
    "List notebook entry templates by name: name (id), days. Start an entry from one with " +
    "labdata_create_entry.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "writes",
  input: {
    name: boundedString({
      description: "Name contains (any case).",
      max: 200,
    }).optional(),
    ...pagingInputs,
  },
  output: countedPageShape("entry_templates", templateBrief),
  async handler({ name, limit, offset, response_format }, ctx, client: LabdataClient) {
    const { items, total, exact } = await notebook.listEntryTemplates(client, name, offset, limit, ctx);
    const page = countedPage("entry_templates", { items, total, exact }, offset);
    return pageReply(page, response_format, () => {
      if (total === 0)
        return name ? `No entry templates match '${name}'.` : "You can see no entry templates.";
      if (items.length === 0) return pastTheEnd("entry templates", page);
      return markdown(
        heading(1, "Entry templates"),
        foundLine("templates", page),
        items.map(templateLine),
        moreLine(page),
      );
    });
  },
});
