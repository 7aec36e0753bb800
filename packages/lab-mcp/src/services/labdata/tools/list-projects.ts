import { pagingInputs } from "../../../core/inputs.js";
import { heading, json, markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import type { LabdataApi } from "../client.js";
import { nameAndId } from "../format/labels.js";
import { countedPage, countedPageShape, howMany, thereAre } from "../list-page.js";
import { projectSchema } from "../records/platform.js";

export const listProjects = defineTool({
  name: "labdata_list_projects",
  title: "List Lab Data Projects",
  description:
    "List the projects you may see on the lab data platform, with their ids: use them to filter " +
    "labdata_list_dna_sequences or labdata_list_folders. Page with offset while has_more is true.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "projects",
  input: { ...pagingInputs },
  output: countedPageShape("projects", projectSchema),
  async handler({ limit, offset, response_format }, ctx, api: LabdataApi) {
    const { items, total, exact } = await api.listProjects(offset, limit, ctx);
    const page = countedPage("projects", { items, total, exact }, offset);
    if (response_format === "json") return reply(page, json(page));
    if (total === 0) return reply(page, "You can see no projects.");
    if (items.length === 0)
      return reply(
        page,
        `No projects at offset ${offset}: ${thereAre({ total, exact })}. Use a smaller offset.`,
      );
    const text = markdown(
      heading(1, "Projects"),
      `Found ${howMany({ total, exact })} projects (showing ${offset + 1}–${offset + items.length})`,
      items.map(
        (p) =>
          `- ${nameAndId(p.name, p.id)}${p.archiveRecord ? (p.archiveRecord.reason?.trim() ? ` (archived: ${p.archiveRecord.reason})` : " (archived)") : ""}`,
      ),
      page.has_more && `More: call again with offset=${page.next_offset}.`,
    );
    return reply(page, text);
  },
});
