import { ActionableError } from "../../../core/errors.js";
import { apiPath } from "../../../core/http/api-path.js";
import { pagingInputs } from "../../../core/inputs.js";
import { pageOf, pageShape } from "../../../core/paging.js";
import { heading, json, markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import type { ProtocolsApi } from "../client.js";
import { protocolLine } from "../format/protocol-markdown.js";
import { openRecords, protocolItemShape } from "../format/reading-shapes.js";

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
  output: pageShape("protocols", protocolItemShape),
  async handler({ limit, offset, response_format }, ctx, api: ProtocolsApi) {
    const { profile } = await api.profile(ctx);
    if (!profile.username)
      throw new ActionableError("The repository did not say your username; try protocols_list_my_protocols.");
    const path = apiPath`api/v3/researchers/${profile.username}/protocols`;
    const { items, total } = await api.range(
      { path, filter: "user_all", orderField: "date", orderDir: "desc" },
      offset,
      limit,
      ctx,
    );
    const page = pageOf("protocols", openRecords(items), total, offset);
    if (response_format === "json") return reply(page, json(page));
    if (total === 0) return reply(page, "You have no protocols yet; protocols_create_draft starts one.");
    if (items.length === 0)
      return reply(page, `No protocols at offset ${offset}: there are ${total}. Use a smaller offset.`);
    return reply(
      page,
      markdown(
        heading(1, "All my protocols"),
        `${total} protocols of yours, every kind (showing ${offset + 1}–${offset + items.length}), newest first`,
        items.map(protocolLine),
        page.has_more && `More: call again with offset=${page.next_offset}.`,
      ),
    );
  },
});
