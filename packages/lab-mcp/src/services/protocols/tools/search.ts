import { z } from "zod";
import { pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd, shownRange } from "../../../core/page-reply.js";
import { pageOf, pageShape } from "../../../core/paging.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { LIST_FILTERS, type ListQuery, listRange } from "../api/protocol-lists.js";
import { MERGED_DEPTH, type SpellingCount, searchSpellings } from "../api/spelling-search.js";
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";
import { protocolLine, stepCount } from "../format/protocol-markdown.js";
import { listedProtocol, listedShape } from "../format/structured.js";
import { checkedText, ORDER_WORDS, ORDERS, orderOf } from "../inputs.js";
import { keywordSpellings } from "../matching/greek.js";
import { sharedAccountNote } from "../reading/acting-as.js";
import type { ProtocolSummary } from "../records/protocols.js";

const FILTER_WORDS = {
  public: "public protocols",
  user_public: "your public protocols",
  user_private: "your private protocols",
  shared_with_user: "private protocols shared with you",
};

const SEARCH_ORDERS = [...ORDERS, "fewest_steps"] as const;

export const searchProtocols = defineTool({
  name: "protocols_search",
  title: "Search Protocols",
  description:
    "Search protocols by keyword (all words, in title, text or authors; α and alpha alike): public ones, or " +
    "your own or shared ones. Returns title (id), authors, date, step count, uri.",
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
    order: z
      .enum(SEARCH_ORDERS)
      .optional()
      .describe("Default 'relevance' with a keyword, else 'activity'. fewest_steps sorts the first 100."),
    ...pagingInputs,
  },
  output: { ...pageShape("protocols", listedShape), total_is_exact: z.boolean().optional() },
  async handler({ keyword, filter, order, limit, offset, response_format }, ctx, client: ProtocolsClient) {
    const remoteOrder = order && order !== "fewest_steps" ? order : keyword ? "relevance" : "activity";
    const query = { filter, ...orderOf(remoteOrder) };
    const found =
      order === "fewest_steps"
        ? await fewestStepsWindow(client, query, keyword, offset, limit, ctx)
        : await search(client, query, keyword, offset, limit, ctx);
    const { items } = found;
    // Past fewest_steps' window nothing is sorted: its pages end there, that count "at least".
    const pageTotal = found.sorted && !found.sorted.all ? found.sorted.read : found.total;
    const exactness = found.exact && pageTotal === found.total ? {} : { total_is_exact: false };
    if (response_format === "json") {
      return pageReply({ ...pageOf("protocols", items, pageTotal, offset), ...exactness }, "json", () => "");
    }
    const page = { ...pageOf("protocols", items.map(listedProtocol), pageTotal, offset), ...exactness };
    const whose = filter === "public" ? undefined : await sharedAccountNote(client, ctx);
    return pageReply(page, "markdown", () => {
      const what = FILTER_WORDS[filter];
      if (found.total === 0 || (items.length === 0 && offset === 0)) {
        const none = keyword
          ? `No protocols found matching ${found.counts.map((c) => `'${c.keyword}'`).join(" or ")}`
          : `No protocols found: there are no ${what}.`;
        return markdown(none, whose);
      }
      if (items.length === 0) return pastTheEnd("protocols", page);
      const orderWords =
        order === "fewest_steps"
          ? fewestStepsWords(found, ORDER_WORDS[remoteOrder])
          : found.counts.length > 1
            ? `${ORDER_WORDS[remoteOrder]} of each spelling in turn`
            : ORDER_WORDS[remoteOrder];
      return markdown(
        heading(1, keyword ? `Protocol search: '${keyword}'` : `Protocols: ${what}`),
        `${countWords(found, what, shownRange(page))}, ${orderWords}`,
        whose,
        items.map(protocolLine),
        found.deep &&
          `The merged list stops ${MERGED_DEPTH} protocols into each spelling's list: narrow the keyword.`,
        moreLine(page),
      );
    });
  },
});

interface Found {
  items: ProtocolSummary[];
  total: number;
  exact: boolean;
  counts: SpellingCount[];
  deep: boolean;
  /** fewest_steps: how many matches were read and sorted, and the order they were read in. */
  sorted?: { read: number; all: boolean; unknown: number };
}

/**
 * How many matches fewest_steps reads before sorting: the repository cannot order by steps, so the
 * order is ours, over the first this many (its largest page), then paged by offset and limit.
 */
const STEP_ORDER_WINDOW = 100;

/** The first STEP_ORDER_WINDOW matches, fewest steps first, and the page of them at offset. */
async function fewestStepsWindow(
  client: ProtocolsClient,
  query: Omit<ListQuery, "key">,
  keyword: string | undefined,
  offset: number,
  limit: number,
  ctx: ProtocolsCall,
): Promise<Found> {
  const window = await search(client, query, keyword, 0, STEP_ORDER_WINDOW, ctx);
  const sorted = byStepCount(window.items);
  const all = window.exact && window.total <= sorted.length;
  return {
    ...window,
    items: sorted.slice(offset, offset + limit),
    sorted: {
      read: sorted.length,
      all,
      unknown: sorted.filter((item) => stepCount(item) === undefined).length,
    },
  };
}

/** The keyword's spellings (α-synuclein, alpha-synuclein) searched and merged; one search when it has one. */
async function search(
  client: ProtocolsClient,
  query: Omit<ListQuery, "key">,
  keyword: string | undefined,
  offset: number,
  limit: number,
  ctx: ProtocolsCall,
): Promise<Found> {
  const spellings = keyword ? keywordSpellings(keyword) : [];
  if (spellings.length > 1) return searchSpellings(client, query, spellings, offset, limit, ctx);
  const range = await listRange(client, { ...query, key: keyword }, offset, limit, ctx);
  const counts = keyword ? [{ keyword, total: range.exact ? range.total : undefined }] : [];
  return { ...range, counts, deep: false };
}

/** "Found 12 public protocols (showing 1–12)", with each spelling's count when several were searched. */
function countWords(found: Found, what: string, shown: string): string {
  if (found.counts.length > 1) {
    const each = found.counts
      .map((c) => `'${c.keyword}' (${c.total === undefined ? "no total given" : `${c.total} found`})`)
      .join(" and ");
    return `Searched as ${each}: ${what}, each once (${shown})`;
  }
  return found.exact
    ? `Found ${found.total} ${what} (${shown})`
    : `${what[0]?.toUpperCase()}${what.slice(1)} (${shown}; the repository gave no total)`;
}

/** The page by step count, fewest first; protocols whose count the repository did not give come last. */
function byStepCount(items: ProtocolSummary[]): ProtocolSummary[] {
  const count = (item: ProtocolSummary) => stepCount(item) ?? Number.POSITIVE_INFINITY;
  return [...items].sort((a, b) => count(a) - count(b));
}

function fewestStepsWords(found: Found, fetchedOrder: string): string {
  const { read = 0, all = false, unknown = 0 } = found.sorted ?? {};
  const over = all
    ? `fewest steps first (all ${read} sorted here: the repository cannot order by steps)`
    : `fewest steps first among the ${read} read ${fetchedOrder} (the repository cannot order by steps; ` +
      "narrow the keyword to sort every match)";
  return over + (unknown > 0 ? `; ${unknown} without a step count in the answer last` : "");
}
