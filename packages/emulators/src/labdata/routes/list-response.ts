// The list envelope {"<key>": [...], "nextToken": "..."} with the Result-Count header, built from
// already serialized items so cached sequence JSON is reused as is.

import { type HttpResponse, jsonTextResponse } from "../../common/response.js";
import type { Page } from "../api/listing.js";
import type { RouteContext } from "./context.js";

export function listResponse<T>(key: string, page: Page<T>, toJson: (item: T) => string): HttpResponse {
  const items = page.items.map(toJson).join(",");
  const text = `{${JSON.stringify(key)}:[${items}],"nextToken":${JSON.stringify(page.nextToken)}}`;
  return jsonTextResponse(200, text, { "Result-Count": String(page.total) });
}

/** What a list's nextToken is bound to besides the query: the endpoint, the caller and extra filters. */
export function listScope(ctx: RouteContext, endpoint: string, filters: unknown[] = []): unknown[] {
  return [ctx.tenant.name, endpoint, ctx.principal.rateKey, ...filters];
}
