// The list envelope {"<key>": [...], "nextToken": "..."} with the Result-Count header, built from
// already serialized items so cached sequence JSON is reused as is.
import type { Page } from "../listing.js";
import type { ApiResponse } from "../response.js";
import type { RouteContext } from "./context.js";

export function listResponse<T>(key: string, page: Page<T>, toJson: (item: T) => string): ApiResponse {
  const items = page.items.map(toJson).join(",");
  return {
    status: 200,
    body: `{${JSON.stringify(key)}:[${items}],"nextToken":${JSON.stringify(page.nextToken)}}`,
    headers: { "Result-Count": String(page.total) },
  };
}

/** What a list's nextToken is bound to besides the query: the endpoint, the caller and extra filters. */
export function listScope(ctx: RouteContext, endpoint: string, filters: unknown[] = []): unknown[] {
  return [ctx.tenant.name, endpoint, ctx.principal.rateKey, ...filters];
}
