import { ActionableError } from "../../../core/errors.js";
import { apiPath } from "../../../core/http/api-path.js";
import { pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply } from "../../../core/page-reply.js";
import { pageOf, pageShape } from "../../../core/paging.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { listRange } from "../api/protocol-lists.js";
import { fetchProfile } from "../api/protocols.js";
import type { ProtocolsApi } from "../client.js";
import { protocolLine } from "../format/protocol-markdown.js";
import { protocolItemSchema } from "../records/protocols.js";

export const listAllMyProtocols = defineTool({
  name: "protocols_list_all_my_protocols",
  title: "List All My Protocols",
  description:
    "List every protocol of the signed-in user in one list, newest first: drafts, private, published (the " +
    "repository's user_all), marking the ones you bookmarked. Use it to find a draft to change with the writing " +
    "tools; protocols_list_my_protocols filters by kind.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "protocols",
  input: { ...pagingInputs },
  output: pageShape("protocols", protocolItemSchema),
  async handler({ limit, offset, response_format }, ctx, api: ProtocolsApi) {
    const { profile } = await fetchProfile(api, ctx);
    if (!profile.username)
      throw new ActionableError("The repository did not say your username; try protocols_list_my_protocols.");
    const path = apiPath`api/v3/researchers/${profile.username}/protocols`;
    const { items, total } = await listRange(
      api,
      { path, filter: "user_all", orderField: "date", orderDir: "desc" },
      offset,
      limit,
      ctx,
    );
    const page = pageOf("protocols", items, total, offset);
    return pageReply(page, response_format, () => {
      if (total === 0) return "You have no protocols yet; protocols_create_draft starts one.";
      if (items.length === 0)
        return `No protocols at offset ${offset}: there are ${total}. Use a smaller offset.`;
      return markdown(
        heading(1, "All my protocols"),
        `${total} protocols of yours, every kind (showing ${offset + 1}–${offset + items.length}), newest first`,
        items.map(protocolLine),
        moreLine(page),
      );
    });
  },
});
