import { z } from "zod";
import { ActionableError } from "../../../core/errors.js";
import { apiPath } from "../../../core/http/api-path.js";
import { pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd, shownRange } from "../../../core/page-reply.js";
import { pageOf, pageShape } from "../../../core/paging.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { type ListQuery, listRange } from "../api/protocol-lists.js";
import { fetchProfile } from "../api/protocols.js";
import type { ProtocolsClient } from "../client.js";
import { protocolLine } from "../format/protocol-markdown.js";
import { listedProtocol, listedShape } from "../format/structured.js";
import { ORDER_WORDS, orderInput, orderOf } from "../inputs.js";
import { sharedAccountNote } from "../reading/acting-as.js";

const WHICH = ["all", "private", "public", "shared_with_me", "with_drafts"] as const;
type Which = (typeof WHICH)[number];
const EMPTY = {
  all: "You have no protocols of your own yet.",
  private: "You have no private protocols.",
  public: "You have no public protocols.",
  shared_with_me: "No private protocols are shared with you.",
  with_drafts: "You have no protocols yet; protocols_create_draft starts one.",
};
const WORDS = {
  all: "protocols of yours, private ones first",
  private: "private protocols of yours",
  public: "public protocols of yours",
  shared_with_me: "private protocols shared with you",
  with_drafts: "protocols of yours, every kind",
};

export const listMyProtocols = defineTool({
  name: "protocols_list_my_protocols",
  title: "List My Protocols",
  description:
    "Your protocols (the signed-in account's): title (id), authors, date, step count, uri. " +
    "which='with_drafts' adds drafts.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "protocols",
  input: {
    which: z
      .enum(WHICH)
      .default("all")
      .describe("'all' (default: private, then public) or 'with_drafts' (every kind, newest first)."),
    order: orderInput("'newest'"),
    ...pagingInputs,
  },
  output: pageShape("protocols", listedShape),
  async handler({ which, order, limit, offset, response_format }, ctx, client: ProtocolsClient) {
    const chosen = which === "with_drafts" ? "newest" : (order ?? "newest");
    const { items, total } = await listed(which, orderOf(chosen), offset, limit, ctx, client);
    const full = pageOf("protocols", items, total, offset);
    if (response_format === "json") return pageReply(full, "json", () => "");
    const page = pageOf("protocols", items.map(listedProtocol), total, offset);
    const whose = await sharedAccountNote(client, ctx);
    return pageReply(page, "markdown", () => {
      if (total === 0) return markdown(EMPTY[which], whose);
      if (items.length === 0) return pastTheEnd("protocols", page);
      return markdown(
        heading(1, which === "with_drafts" ? "All my protocols" : "My protocols"),
        `Found ${total} ${WORDS[which]} (${shownRange(page)}), ${ORDER_WORDS[chosen]}`,
        whose,
        items.map(protocolLine),
        moreLine(page),
      );
    });
  },
});

type Range = Awaited<ReturnType<typeof listRange>>;

async function listed(
  which: Which,
  sort: Pick<ListQuery, "orderField" | "orderDir">,
  offset: number,
  limit: number,
  ctx: Parameters<typeof listRange>[4],
  client: ProtocolsClient,
): Promise<Range> {
  const query = (filter: ListQuery["filter"]): ListQuery => ({ filter, ...sort });
  if (which === "with_drafts") {
    // The repository's user_all: drafts, private and published in one list.
    const { profile } = await fetchProfile(client, ctx);
    if (!profile.username)
      throw new ActionableError("The repository did not say your username; try which='all'.");
    const path = apiPath`api/v3/researchers/${profile.username}/protocols`;
    return listRange(
      client,
      { path, filter: "user_all", orderField: "date", orderDir: "desc" },
      offset,
      limit,
      ctx,
    );
  }
  if (which === "all") {
    // Private first, then public: the public ones start where the private ones end.
    const mine = await listRange(client, query("user_private"), offset, limit, ctx);
    const room = limit - mine.items.length;
    const published = await listRange(
      client,
      query("user_public"),
      Math.max(0, offset - mine.total),
      Math.max(room, 1),
      ctx,
    );
    return {
      items: [...mine.items, ...(room > 0 ? published.items : [])],
      total: mine.total + published.total,
      exact: mine.exact && published.exact,
    };
  }
  const filter = {
    private: "user_private",
    public: "user_public",
    shared_with_me: "shared_with_user",
  } as const;
  return listRange(client, query(filter[which]), offset, limit, ctx);
}
