import { apiPath } from "../../../core/http/api-path.js";
import { identifier, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply } from "../../../core/page-reply.js";
import { pageOf, pageShape } from "../../../core/paging.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { listRange } from "../api/protocol-lists.js";
import type { ProtocolsApi } from "../client.js";
import { protocolLine } from "../format/protocol-markdown.js";
import { protocolItemSchema } from "../records/protocols.js";

export const listWorkspaceProtocols = defineTool({
  name: "protocols_list_workspace_protocols",
  title: "List Workspace Protocols",
  description:
    "List the published protocols of one workspace, newest first (e.g. 'what has my workspace " +
    "published this month?'): title (id), authors, date, step count, uri. Private ones are not listed here. Find " +
    "the workspace's uri with protocols_list_workspaces.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "workspaces",
  input: {
    workspace: identifier(
      "The workspace's uri (from protocols_list_workspaces), e.g. okafor-lab-1a2b3c.",
      200,
    ),
    ...pagingInputs,
  },
  output: pageShape("protocols", protocolItemSchema),
  async handler({ workspace, limit, offset, response_format }, ctx, api: ProtocolsApi) {
    const path = apiPath`api/v3/workspaces/${workspace}/protocols`;
    const { items, total } = await listRange(
      api,
      { path, filter: "public", orderField: "date", orderDir: "desc" },
      offset,
      limit,
      ctx,
    );
    const page = pageOf("protocols", items, total, offset);
    return pageReply(page, response_format, () => {
      if (total === 0) return `Workspace ${workspace} has no published protocols.`;
      if (items.length === 0)
        return `No protocols at offset ${offset}: there are ${total}. Use a smaller offset.`;
      return markdown(
        heading(1, `Published protocols of workspace ${workspace}`),
        `${total} protocols (showing ${offset + 1}–${offset + items.length}), newest first`,
        items.map(protocolLine),
        moreLine(page),
      );
    });
  },
});
