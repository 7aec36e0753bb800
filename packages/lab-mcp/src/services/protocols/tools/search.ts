import { z } from "zod";
import { boundedString, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply } from "../../../core/page-reply.js";
import { pageOf, pageShape } from "../../../core/paging.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { LIST_FILTERS, listRange } from "../api/protocol-lists.js";
import type { ProtocolsApi } from "../client.js";
import { protocolLine } from "../format/protocol-markdown.js";
import { ORDER_WORDS, orderInput, orderOf } from "../inputs.js";
import { protocolSummarySchema } from "../records/protocols.js";

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
    "Search the protocol repository by keyword (every word must appear in the title, description, steps or " +
    "authors), in public protocols or in your own or shared private ones. Returns title (id), authors, date, " +
    "step count and uri of each match. Use the id with protocols_get_protocol, protocols_get_steps or " +
    "protocols_download_pdf. Page with offset while has_more is true.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "protocols",
  input: {
    keyword: boundedString({
      description:
        "Words to search for, e.g. 'western blot' or 'RNA extraction TRIzol' (2 to 200 characters).",
      min: 2,
      max: 200,
    }).optional(),
    filter: z
      .enum(LIST_FILTERS)
      .default("public")
      .describe(
        "Which protocols: 'public' (default, everyone's public ones), 'user_public' and 'user_private' (your own), " +
          "'shared_with_user' (others' private ones shared with you).",
      ),
    order: orderInput("'relevance' with a keyword, 'activity' without"),
    ...pagingInputs,
  },
  output: pageShape("protocols", protocolSummarySchema),
  async handler({ keyword, filter, order, limit, offset, response_format }, ctx, api: ProtocolsApi) {
    const chosen = order ?? (keyword ? "relevance" : "activity");
    const query = { filter, key: keyword, ...orderOf(chosen) };
    const { items, total } = await listRange(api, query, offset, limit, ctx);
    const page = pageOf("protocols", items, total, offset);
    return pageReply(page, response_format, () => {
      const what = FILTER_WORDS[filter];
      if (total === 0) {
        return keyword
          ? `No protocols found matching '${keyword}'`
          : `No protocols found: there are no ${what}.`;
      }
      if (items.length === 0)
        return `No protocols at offset ${offset}: there are ${total}. Use a smaller offset.`;
      const text = markdown(
        heading(1, keyword ? `Protocol search: '${keyword}'` : `Protocols: ${what}`),
        `Found ${total} ${what} (showing ${offset + 1}–${offset + items.length}), ${ORDER_WORDS[chosen]}`,
        items.map(protocolLine),
        moreLine(page),
      );
      return text;
    });
  },
});
