import { identifier, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import type { LabdataApi } from "../client.js";
import { nameAndId } from "../format/labels.js";
import { countedPage, countedPageShape, foundLine, pastTheEnd } from "../list-page.js";
import { folderSchema } from "../records/platform.js";

export const listFolders = defineTool({
  name: "labdata_list_folders",
  title: "List Lab Data Folders",
  description:
    "List the folders you may see, optionally of one project, with their ids: use them to filter " +
    "labdata_list_dna_sequences or as the folder of labdata_create_dna_sequence. Project ids come from " +
    "labdata_list_projects. Page with offset while has_more is true.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "projects",
  input: {
    project_id: identifier("Only folders of this project (id from labdata_list_projects).").optional(),
    ...pagingInputs,
  },
  output: countedPageShape("folders", folderSchema),
  async handler({ project_id, limit, offset, response_format }, ctx, api: LabdataApi) {
    const { items, total, exact } = await api.listFolders(project_id, offset, limit, ctx);
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
