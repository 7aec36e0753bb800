import { z } from "zod";
import { boundedString, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply } from "../../../core/page-reply.js";
import { pageOf, pageShape } from "../../../core/paging.js";
import { heading, markdown, nameWithId } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { oneLine } from "../../../core/untrusted-text.js";
import { listWorkspaces } from "../api/workspaces.js";
import type { ProtocolsApi } from "../client.js";
import { type Workspace, workspaceItemSchema } from "../records/workspace.js";

function workspaceLine(workspace: Workspace): string {
  const parts = [
    workspace.members !== undefined
      ? `${workspace.members} member${workspace.members === 1 ? "" : "s"}`
      : undefined,
    workspace.is_owner ? "you own it" : workspace.is_member ? "you are a member" : undefined,
    `uri ${workspace.uri}`,
  ].filter(Boolean);
  return `- **${nameWithId(workspace.title, workspace.id)}**: ${oneLine(parts.join("; "))}`;
}

export const listWorkspacesTool = defineTool({
  name: "protocols_list_workspaces",
  title: "List Workspaces",
  description:
    "List the workspaces (lab or team groups) you belong to, or, with which='all', every workspace whose name " +
    "contains keyword: name (id), members, your role and uri. Read a workspace's published protocols with " +
    "protocols_list_workspace_protocols.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "workspaces",
  input: {
    which: z
      .enum(["mine", "all"])
      .default("mine")
      .describe("'mine' (default: the workspaces you are a member of) or 'all'."),
    keyword: boundedString({ description: "Only workspaces whose name contains this.", max: 200 }).optional(),
    ...pagingInputs,
  },
  output: pageShape("workspaces", workspaceItemSchema),
  async handler({ which, keyword, limit, offset, response_format }, ctx, api: ProtocolsApi) {
    const { items, total } = await listWorkspaces(
      api,
      { mine: which === "mine", key: keyword },
      offset,
      limit,
      ctx,
    );
    const page = pageOf("workspaces", items, total, offset);
    return pageReply(page, response_format, () => {
      if (total === 0) {
        return which === "mine" ? "You are not a member of any workspace." : "No workspaces found.";
      }
      if (items.length === 0)
        return `No workspaces at offset ${offset}: there are ${total}. Use a smaller offset.`;
      return markdown(
        heading(1, which === "mine" ? "My workspaces" : "Workspaces"),
        `${total} workspaces (showing ${offset + 1}–${offset + items.length})`,
        items.map(workspaceLine),
        moreLine(page),
      );
    });
  },
});
