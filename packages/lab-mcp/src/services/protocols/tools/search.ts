import { z } from "zod";
import { pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd, shownRange } from "../../../core/page-reply.js";
import { pageOf, pageShape } from "../../../core/paging.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { LIST_FILTERS, listRange } from "../api/protocol-lists.js";
import type { ProtocolsClient } from "../client.js";
import { protocolLine } from "../format/protocol-markdown.js";
import { listedProtocol, listedShape } from "../format/structured.js";
import { checkedText, ORDER_WORDS, orderInput, orderOf } from "../inputs.js";

const FILTER_WORDS = {
  public: "public protocols",
  user_public: "your public protocols",
  user_private: "your private protocols",
  shared_with_user: "private protocols shared with you",
};

export const searchProtocols = defineTool({
  name: "protocols_search",
  title: "Search Protocols",
  description:
    "Search protocols by keyword (every word in title, description, steps or authors): public ones, or your " +
    "own or shared ones. Returns title (id), authors, date, step count, uri.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "protocols",
  input: {
    keyword: checkedText({
      description: "Words, e.g. 'western blot'.",
      min: 2,
      max: 200,
    }).optional(),
    filter: z
      .enum(LIST_FILTERS)
      .default("public")
      .describe("Default 'public'; the others are yours or shared with you."),
    order: orderInput("'relevance' with a keyword, 'activity' without"),
    ...pagingInputs,
  },
  output: pageShape("protocols", listedShape),
  async handler({ keyword, filter, order, limit, offset, response_format }, ctx, client: ProtocolsClient) {
    const chosen = order ?? (keyword ? "relevance" : "activity");
    const query = { filter, key: keyword, ...orderOf(chosen) };
    const { items, total } = await listRange(client, query, offset, limit, ctx);
    if (response_format === "json")
      return pageReply(pageOf("protocols", items, total, offset), "json", () => "");
    const page = pageOf("protocols", items.map(listedProtocol), total, offset);
    return pageReply(page, "markdown", () => {
      const what = FILTER_WORDS[filter];
      if (total === 0) {
        return keyword
          ? `No protocols found matching '${keyword}'`
          : `No protocols found: there are no ${what}.`;
      }
      if (items.length === 0) return pastTheEnd("protocols", page);
      const text = markdown(
        heading(1, keyword ? `Protocol search: '${keyword}'` : `Protocols: ${what}`),
        `Found ${total} ${what} (${shownRange(page)}), ${ORDER_WORDS[chosen]}`,
        items.map(protocolLine),
        moreLine(page),
      );
      return text;
    });
  },
});
