// GET /api/v2/users/me: the authenticated user; for an app, the service user it acts as.
// GET /api/v2/users: the tenant's users (every member may see the others), by exact name, a part of
// the name (nameIncludes, any case), handles or ids, as the reference document filters them.
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { matchesQuery, paginate, parseListQuery } from "../api/listing.js";
import { userToWire } from "../api/shapes.js";
import { commaList } from "../notebook/query.js";
import type { RouteContext } from "./context.js";
import { listResponse, listScope } from "./list-response.js";

export function getMe(ctx: RouteContext): HttpResponse {
  ctx.resourceId = ctx.principal.actor.user.id;
  return jsonResponse(200, userToWire(ctx.principal.actor.user));
}

export function listUsers(ctx: RouteContext): HttpResponse {
  const params = ctx.url.searchParams;
  const ids = commaList(params, "ids");
  const handles = commaList(params, "handles");
  const query = parseListQuery(params, listScope(ctx, "users", [params.get("ids"), params.get("handles")]));
  const matches = [...ctx.tenant.users.values()]
    .filter((user) => user.kind === "person")
    .filter((user) => (!ids || ids.has(user.id)) && (!handles || handles.has(user.handle)))
    .map((user) => ({ ...user, archiveReason: null }))
    .filter((user) => matchesQuery(user, query));
  const page = paginate(matches, query, ctx.pageTokens);
  return listResponse("users", page, (user) => JSON.stringify(userToWire(user)));
}
