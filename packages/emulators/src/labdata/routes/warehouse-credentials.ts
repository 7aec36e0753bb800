// POST /api/v2/warehouse-credentials: a temporary warehouse login that authenticates as the caller
// (the tenant's warehouse starts on its first request), and GET /api/v2/users/{id}/warehouse-credentials:
// the caller's own logins, never another user's.
import { z } from "zod";
import { readJsonBody } from "../../common/json-body.js";
import type { PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { ApiError, badRequest, notFound, payloadTooLarge } from "../api/errors.js";
import type { TenantWarehouse } from "../warehouse/tenant-warehouse.js";
import type { RouteContext } from "./context.js";

const CREATE = z
  .object({
    expiresIn: z
      .number({ error: "expiresIn is required: seconds the credentials last, 1 to 3599" })
      .int("expiresIn must be a whole number of seconds")
      .min(1, "expiresIn must be greater than 0")
      .max(3599, "expiresIn must be less than 3600"),
  })
  .strict();

const unavailable = (cause: unknown): ApiError =>
  new ApiError(
    503,
    "server_error",
    `The warehouse is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`,
    "The warehouse is unavailable. Try again later.",
  );

async function warehouseOf(ctx: RouteContext): Promise<TenantWarehouse> {
  try {
    const warehouse = await ctx.warehouses.forTenant(ctx.tenant.name);
    if (warehouse.stopped) throw new Error("the warehouse is stopped");
    return warehouse;
  } catch (error) {
    throw unavailable(error);
  }
}

export async function createWarehouseCredentials(ctx: RouteContext): Promise<HttpResponse> {
  const body = await readJsonBody(ctx.req, CREATE);
  if (!body.ok) throw body.status === 413 ? payloadTooLarge(body.message) : badRequest(body.message);
  const warehouse = await warehouseOf(ctx);
  ctx.resourceId = ctx.principal.actor.user.id;
  try {
    return jsonResponse(200, await warehouse.mint(ctx.principal.actor, body.value.expiresIn));
  } catch (error) {
    throw unavailable(error);
  }
}

export async function listWarehouseCredentials(ctx: RouteContext, params: PathParams): Promise<HttpResponse> {
  const userId = params.id ?? "";
  if (userId !== ctx.principal.actor.user.id || !ctx.tenant.users.has(userId))
    throw notFound(`No user ${userId} of yours`);
  ctx.resourceId = userId;
  const logins = ctx.warehouses.running(ctx.tenant.name)?.logins ?? [];
  return jsonResponse(200, {
    warehouseCredentials: logins
      .filter((login) => login.userId === userId)
      .map((login) => ({
        id: login.id,
        userId: login.userId,
        username: login.username,
        label: login.username,
        createdAt: new Date(login.createdAt).toISOString(),
        modifiedAt: new Date(login.createdAt).toISOString(),
      })),
  });
}
