import { z } from "zod";
import { pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply } from "../../../core/page-reply.js";
import { pageOf, pageShape } from "../../../core/paging.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { type ListQuery, listRange } from "../api/protocol-lists.js";
import type { ProtocolsApi } from "../client.js";
import { protocolLine } from "../format/protocol-markdown.js";
import { ORDER_WORDS, orderInput, orderOf } from "../inputs.js";
import { protocolSummarySchema } from "../records/protocols.js";

const WHICH = ["all", "private", "public", "shared_with_me"] as const;
const EMPTY = {
  all: "You have no protocols of your own yet.",
  private: "You have no private protocols.",
  public: "You have no public protocols.",
  shared_with_me: "No private protocols are shared with you.",
};
const WORDS = {
  all: "protocols of yours, private ones first",
  private: "private protocols of yours",
  public: "public protocols of yours",
  shared_with_me: "private protocols shared with you",
};

export const listMyProtocols = defineTool({
  name: "protocols_list_my_protocols",
  title: "List My Protocols",
  description:
    "List the protocols of the signed-in user (or of the client token's owner): their private ones, their " +
    "published ones, or private ones others share with them. Returns title (id), authors, date, step count and " +
    "uri. Use the id with protocols_get_protocol or protocols_get_steps; search everything with protocols_search.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "protocols",
  input: {
    which: z
      .enum(WHICH)
      .default("all")
      .describe(
        "'all' (default: your private protocols, then your public ones), 'private', 'public', or " +
          "'shared_with_me' (others' private protocols shared with you).",
      ),
    order: orderInput("'newest'"),
    ...pagingInputs,
  },
  output: pageShape("protocols", protocolSummarySchema),
  async handler({ which, order, limit, offset, response_format }, ctx, api: ProtocolsApi) {
    const chosen = order ?? "newest";
    const sort = orderOf(chosen);
    const query = (filter: ListQuery["filter"]): ListQuery => ({ filter, ...sort });
    let result: Awaited<ReturnType<typeof listRange>>;
    if (which === "all") {
      // Private first, then public: the public ones start where the private ones end.
      const mine = await listRange(api, query("user_private"), offset, limit, ctx);
      const room = limit - mine.items.length;
      const published = await listRange(
        api,
        query("user_public"),
        Math.max(0, offset - mine.total),
        Math.max(room, 1),
        ctx,
      );
      result = {
        items: [...mine.items, ...(room > 0 ? published.items : [])],
        total: mine.total + published.total,
      };
    } else {
      const filter = {
        private: "user_private",
        public: "user_public",
        shared_with_me: "shared_with_user",
      } as const;
      result = await listRange(api, query(filter[which]), offset, limit, ctx);
    }
    const { items, total } = result;
    const page = pageOf("protocols", items, total, offset);
    return pageReply(page, response_format, () => {
      if (total === 0) return EMPTY[which];
      if (items.length === 0)
        return `No protocols at offset ${offset}: there are ${total}. Use a smaller offset.`;
      const text = markdown(
        heading(1, "My protocols"),
        `Found ${total} ${WORDS[which]} (showing ${offset + 1}–${offset + items.length}), ${ORDER_WORDS[chosen]}`,
        items.map(protocolLine),
        moreLine(page),
      );
      return text;
    });
  },
});
