// protocols_list_workspaces with a workspace: its published protocols, newest first.
import type { ToolContext } from "../../../core/context.js";
import { apiPath } from "../../../core/http/api-path.js";
import type { ResponseFormat } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd, shownRange } from "../../../core/page-reply.js";
import { pageOf } from "../../../core/paging.js";
import { heading, markdown } from "../../../core/render.js";
import { listRange } from "../api/protocol-lists.js";
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";
import { protocolLine } from "../format/protocol-markdown.js";
import { listedProtocol } from "../format/structured.js";

interface Ask {
  workspace: string;
  limit: number;
  offset: number;
  response_format: ResponseFormat;
}

export async function workspaceProtocols(
  ask: Ask,
  ctx: ToolContext & ProtocolsCall,
  client: ProtocolsClient,
) {
  const { workspace, limit, offset, response_format } = ask;
  const path = apiPath`api/v3/workspaces/${workspace}/protocols`;
  const { items, total } = await listRange(
    client,
    { path, filter: "public", orderField: "date", orderDir: "desc" },
    offset,
    limit,
    ctx,
  );
  if (response_format === "json")
    return pageReply(pageOf("protocols", items, total, offset), "json", () => "");
  const page = pageOf("protocols", items.map(listedProtocol), total, offset);
  return pageReply(page, "markdown", () => {
    if (total === 0) return `Workspace ${workspace} has no published protocols.`;
    if (items.length === 0) return pastTheEnd("protocols", page);
    return markdown(
      heading(1, `Published protocols of workspace ${workspace}`),
      `${total} protocols (${shownRange(page)}), newest first`,
      items.map(protocolLine),
      moreLine(page),
    );
  });
}
