// GET /api/v2/users/me: the authenticated user; for an app, the service user it acts as.
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { userToWire } from "../api/shapes.js";
import type { RouteContext } from "./context.js";

export function getMe(ctx: RouteContext): HttpResponse {
  ctx.resourceId = ctx.principal.actor.user.id;
  return jsonResponse(200, userToWire(ctx.principal.actor.user));
}
