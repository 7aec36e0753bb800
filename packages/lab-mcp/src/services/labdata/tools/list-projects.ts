import { pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { oneLine } from "../../../core/untrusted-text.js";
import type { LabdataClient } from "../client.js";
import { nameAndId } from "../format/labels.js";
import { countedPage, countedPageShape, foundLine } from "../list-page.js";
import { projectBrief } from "../records/brief.js";

export const listProjects = defineTool({
  name: "labdata_list_projects",
  title: "List Lab Data Projects",
  description: "List projects: name (id). Project ids filter lists and folders.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "projects",
  input: { ...pagingInputs },
  output: countedPageShape("projects", projectBrief),
  async handler({ limit, offset, response_format }, ctx, client: LabdataClient) {
    const { items, total, exact } = await client.listProjects(offset, limit, ctx);
    const page = countedPage("projects", { items, total, exact }, offset);
    return pageReply(page, response_format, () => {
      if (total === 0) return "You can see no projects.";
      if (items.length === 0) return pastTheEnd("projects", page);
      return markdown(
        heading(1, "Projects"),
        foundLine("projects", page),
        items.map(
          (p) =>
            `- ${nameAndId(p.name, p.id)}${p.archiveRecord ? (p.archiveRecord.reason?.trim() ? ` (archived: ${oneLine(p.archiveRecord.reason)})` : " (archived)") : ""}`,
        ),
        moreLine(page),
      );
    });
  },
});
