// GET /api/v3/protocols: list and search what the caller may see, filtered, ordered and paged.
import { z } from "zod";
import type { HttpResponse } from "../../common/response.js";
import type { Protocol } from "../model.js";
import type { ApiRequest } from "./api-answer.js";
import { StatusCode } from "./api-errors.js";
import { protocolSummaryWire } from "./api-shapes.js";
import { listEnvelope } from "./list-envelope.js";
import { keyTerms, ORDER_FIELDS, orderProtocols, relevance } from "./protocol-search.js";
import { canSee, inFilter, LIST_FILTERS } from "./visibility.js";

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

// page_id counts from the dialect's page origin (fact sheet §3.4): 1 as documented, or 0 as observed.
const listQuerySchema = (firstPage: number) =>
  z.object({
    filter: z.enum(LIST_FILTERS, {
      error: `filter is required and must be one of ${LIST_FILTERS.join(", ")}`,
    }),
    key: z.string().max(500, "key must be at most 500 characters").default(""),
    order_field: z
      .enum(ORDER_FIELDS, { error: `order_field must be one of ${ORDER_FIELDS.join(", ")}` })
      .default("activity"),
    order_dir: z.enum(["asc", "desc"], { error: "order_dir must be asc or desc" }).default("desc"),
    page_size: integerParam("page_size", 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
    page_id: integerParam("page_id", firstPage, Number.MAX_SAFE_INTEGER, firstPage),
  });

const QUERY_SCHEMAS = { 0: listQuerySchema(0), 1: listQuerySchema(1) };

export function listProtocols({ answer, url, viewer, ctx, view }: ApiRequest): HttpResponse {
  // The first value of each parameter; empty values count as absent so defaults apply.
  const raw: Record<string, string> = {};
  for (const [name, value] of url.searchParams) if (!(name in raw) && value !== "") raw[name] = value;
  const firstPage = view.dialect.pageOrigin;
  const parsed = QUERY_SCHEMAS[firstPage].safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const code = issue?.path[0] === "order_field" ? StatusCode.WRONG_ORDER_FIELD : StatusCode.BAD_PARAMETERS;
    return answer.error(400, code, issue?.message ?? "Invalid parameters.");
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
  const start = (query.page_id - firstPage) * query.page_size;
  const items = ordered
    .slice(start, start + query.page_size)
    .map((p) => protocolSummaryWire(p, ctx.store, view));
  const page = {
    items,
    pageId: query.page_id,
    pageSize: query.page_size,
    totalResults: ordered.length,
    url,
    origin: ctx.origin,
  };
  return answer.ok(listEnvelope(page, view.dialect));
}
