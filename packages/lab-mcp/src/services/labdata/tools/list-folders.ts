import { identifier, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import type { LabdataClient } from "../client.js";
import { nameAndId } from "../format/labels.js";
import { countedPage, countedPageShape, foundLine } from "../list-page.js";
import { folderBrief } from "../records/brief.js";

export const listFolders = defineTool({
  name: "labdata_list_folders",
  title: "List Lab Data Folders",
  description:
    "Folders, of one project or all: name (id), project. Their ids filter lists and place new " +
    "sequences and entries.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "projects",
  input: {
    project_id: identifier("Only folders of this project.").optional(),
    ...pagingInputs,
  },
  output: countedPageShape("folders", folderBrief),
  async handler({ project_id, limit, offset, response_format }, ctx, client: LabdataClient) {
    const { items, total, exact } = await client.listFolders(project_id, offset, limit, ctx);
    const page = countedPage("folders", { items, total, exact }, offset);
    return pageReply(page, response_format, () => {
      if (total === 0)
        return project_id ? `You can see no folders in project ${project_id}.` : "You can see no folders.";
      if (items.length === 0) return pastTheEnd("folders", page);
      return markdown(
        heading(1, project_id ? `Folders of project ${project_id}` : "Folders"),
        foundLine("folders", page),
        items.map((f) => `- ${nameAndId(f.name, f.id)}${f.projectId ? `, project ${f.projectId}` : ""}`),
        moreLine(page),
      );
    });
  },
});
