// GET /api/v3/protocols: list and search what the caller may see, filtered, ordered and paged.
import type { ServerResponse } from "node:http";
import { z } from "zod";
import { StatusCode, sendApiError } from "./api-errors.js";
import type { ProtocolsContext } from "./context.js";
import type { Protocol, User } from "./model.js";
import { keyTerms, ORDER_FIELDS, orderProtocols, relevance } from "./protocol-search.js";
import { sendOk } from "./respond.js";
import { canSee, inFilter, LIST_FILTERS } from "./visibility.js";
import { protocolSummaryWire } from "./wire.js";

const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 100;

// Digits only: "1e1", "2.0", "+3" and " 4" are refused rather than coerced, as a strict API would.
function integerParam(name: string, min: number, max: number, fallback: number) {
  const message =
    max === Number.MAX_SAFE_INTEGER
      ? `${name} must be an integer of at least ${min}`
      : `${name} must be an integer from ${min} to ${max}`;
  return z
    .string()
    .regex(/^\d{1,16}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(min, message).max(max, message))
    .default(fallback);
}

const listQuerySchema = z.object({
  filter: z.enum(LIST_FILTERS, { error: `filter is required and must be one of ${LIST_FILTERS.join(", ")}` }),
  key: z.string().max(500, "key must be at most 500 characters").default(""),
  order_field: z
    .enum(ORDER_FIELDS, { error: `order_field must be one of ${ORDER_FIELDS.join(", ")}` })
    .default("activity"),
  order_dir: z.enum(["asc", "desc"], { error: "order_dir must be asc or desc" }).default("desc"),
  page_size: integerParam("page_size", 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
  page_id: integerParam("page_id", 1, Number.MAX_SAFE_INTEGER, 1),
});

export function listProtocols(res: ServerResponse, url: URL, viewer: User, ctx: ProtocolsContext): void {
  // The first value of each parameter; empty values count as absent so defaults apply.
  const raw: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!(name in raw) && value !== "") raw[name] = value;
  const parsed = listQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const code = issue?.path[0] === "order_field" ? StatusCode.WRONG_ORDER_FIELD : StatusCode.BAD_PARAMETERS;
    sendApiError(res, 400, code, issue?.message ?? "Invalid parameters.");
    return;
  }
  const query = parsed.data;

  const terms = keyTerms(query.key);
  const scores = new Map<Protocol, number>();
  const matches = ctx.store.protocols().filter((p) => {
    if (!canSee(p, viewer) || !inFilter(p, query.filter, viewer)) return false;
    if (terms.length === 0) return true;
    const score = relevance(p, terms, query.key.trim());
    if (score !== undefined) scores.set(p, score);
    return score !== undefined;
  });
  const ordered = orderProtocols(matches, query.order_field, query.order_dir, scores);
  const start = (query.page_id - 1) * query.page_size;
  sendOk(res, {
    items: ordered
      .slice(start, start + query.page_size)
      .map((p) => protocolSummaryWire(p, ctx.store, ctx.origin)),
    pagination: {
      current_page: query.page_id,
      total_pages: Math.ceil(ordered.length / query.page_size),
      total_results: ordered.length,
      page_size: query.page_size,
    },
  });
}
