import { z } from "zod";
import { identifier, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd, shownRange } from "../../../core/page-reply.js";
import { pageOf, pageShape } from "../../../core/paging.js";
import { heading, markdown, nameWithId } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { oneLine } from "../../../core/untrusted-text.js";
import { listWorkspaces } from "../api/workspaces.js";
import type { ProtocolsClient } from "../client.js";
import { workspaceShape } from "../format/structured.js";
import { checkedText } from "../inputs.js";
import { sharedAccountNote } from "../reading/acting-as.js";
import { workspaceProtocols } from "../reading/workspace-protocols.js";
import type { Workspace } from "../records/workspace.js";

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

/** A workspace as its line shows it: name (id), members, your role, uri. */
function shownWorkspace({ id, title, uri, members, is_member, is_owner }: Workspace) {
  return { id, title, uri, members, is_member, is_owner };
}

export const listWorkspacesTool = defineTool({
  name: "protocols_list_workspaces",
  title: "List Workspaces",
  description:
    "List your workspaces (lab groups), or with which='all' any: name (id), members, your role, uri. With " +
    "workspace: its published protocols.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "workspaces",
  input: {
    which: z.enum(["mine", "all"]).default("mine").describe("'mine' (default: yours) or 'all'."),
    keyword: checkedText({ description: "In the name.", max: 200 }).optional(),
    workspace: identifier("A workspace's uri: list its published protocols.", 200).optional(),
    ...pagingInputs,
  },
  // A page of workspaces, or with workspace a page of its protocols.
  output: {
    ...pageShape("workspaces", workspaceShape),
    workspaces: z.array(workspaceShape).optional(),
    protocols: z.array(z.unknown()).optional(),
  },
  async handler({ which, keyword, workspace, limit, offset, response_format }, ctx, client: ProtocolsClient) {
    if (workspace !== undefined)
      return workspaceProtocols({ workspace, limit, offset, response_format }, ctx, client);
    const { items, total } = await listWorkspaces(
      client,
      { mine: which === "mine", key: keyword },
      offset,
      limit,
      ctx,
    );
    if (response_format === "json")
      return pageReply(pageOf("workspaces", items, total, offset), "json", () => "");
    // The markdown answer's structured copy: what each line shows, not the workspace's description.
    const page = pageOf("workspaces", items.map(shownWorkspace), total, offset);
    // "Mine", and "you own it" on any line, are the shared account's when the server acts as one.
    const whose = await sharedAccountNote(client, ctx);
    return pageReply(page, "markdown", () => {
      if (total === 0) {
        return markdown(
          which === "mine" ? "You are not a member of any workspace." : "No workspaces found.",
          which === "mine" && whose,
        );
      }
      if (items.length === 0) return pastTheEnd("workspaces", page);
      return markdown(
        heading(1, which === "mine" ? "My workspaces" : "Workspaces"),
        `${total} workspaces (${shownRange(page)})`,
        whose,
        items.map(workspaceLine),
        moreLine(page),
      );
    });
  },
});
