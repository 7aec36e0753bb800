// One tenant API request, in this order: tenant, path, IP allowlist, token endpoint (no auth needed),
// authentication, rate limit, route, method, handler, audit. Authentication comes before routing so
// an unauthenticated caller cannot probe which paths exist.
import type { IncomingMessage } from "node:http";
import type { Clock } from "../../common/clock.js";
import type { PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, withHeaders } from "../../common/response.js";
import { matchRoute } from "../../common/routes.js";
import { authenticate, type Principal } from "../auth/authenticate.js";
import type { OidcVerifier } from "../auth/oidc.js";
import { grantAccessToken, readTokenRequest } from "../auth/token.js";
import { API_ROUTES, type ApiRoute, type RouteContext } from "../routes/index.js";
import type { EmulatorState, TenantState } from "../state/emulator-state.js";
import type { IdFactory } from "../state/ids.js";
import type { Warehouses } from "../warehouse/warehouses.js";
import { ApiError, errorResponse, forbidden, methodNotAllowed, notFound } from "./errors.js";
import type { PageTokens } from "./page-tokens.js";
import { countRequest } from "./rate-limit.js";

export const API_PREFIX = "/api/v2";

export interface ApiEnvironment {
  state: EmulatorState;
  clock: Clock;
  ids: IdFactory;
  oidc: OidcVerifier;
  pageTokens: PageTokens;
  warehouses: Warehouses;
}

interface AuditEvent {
  principal: Principal;
  action: string;
  resourceId: string | null;
  status: number;
}

function audit(
  tenant: TenantState,
  clock: Clock,
  req: IncomingMessage,
  path: string,
  event: AuditEvent,
): void {
  const { actor } = event.principal;
  tenant.audit.record({
    at: new Date(clock.now()).toISOString(),
    method: req.method ?? "GET",
    path,
    status: event.status,
    action: event.action,
    resourceId: event.resourceId,
    authMethod: event.principal.method,
    actorUserId: actor.user.id,
    actorHandle: actor.user.handle,
    appId: actor.kind === "app" ? actor.app.id : null,
    apiKeyId: event.principal.apiKeyId,
  });
}

async function tokenEndpoint(
  req: IncomingMessage,
  tenant: TenantState,
  env: ApiEnvironment,
  fullPath: string,
): Promise<HttpResponse> {
  const request = await readTokenRequest(req, tenant);
  if ("refused" in request) return request.refused;
  const rate = countRequest(tenant, request.principal.rateKey);
  if (rate.refusal) return withHeaders(errorResponse(rate.refusal), rate.headers);
  const response = grantAccessToken(tenant, request.app, env.clock);
  audit(tenant, env.clock, req, fullPath, {
    principal: request.principal,
    action: "token.issue",
    resourceId: request.app.id,
    status: response.status,
  });
  return withHeaders(response, rate.headers);
}

async function serveRoute(ctx: RouteContext, route: ApiRoute, params: PathParams): Promise<HttpResponse> {
  try {
    return await route.handle(ctx, params);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    throw error;
  }
}

export async function answerApiRequest(
  req: IncomingMessage,
  url: URL,
  env: ApiEnvironment,
): Promise<HttpResponse> {
  const slash = url.pathname.indexOf("/", 1);
  const tenantName = url.pathname.slice(1, slash < 0 ? undefined : slash);
  const tenant = env.state.tenants.get(tenantName);
  if (!tenant) return errorResponse(notFound("No such tenant"));
  const apiPath = slash < 0 ? "" : url.pathname.slice(slash);
  if (!apiPath.startsWith(`${API_PREFIX}/`)) return errorResponse(notFound(`No endpoint ${apiPath || "/"}`));
  if (!tenant.allowsAddress(req.socket.remoteAddress)) {
    return errorResponse(forbidden("Your IP address is not on this tenant's API allowlist"));
  }
  const path = apiPath.slice(API_PREFIX.length);
  if (path === "/token") return tokenEndpoint(req, tenant, env, url.pathname);

  let principal: Principal;
  try {
    principal = await authenticate(req, tenant, env.clock, env.oidc);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    throw error;
  }
  const rate = countRequest(tenant, principal.rateKey);
  if (rate.refusal) return withHeaders(errorResponse(rate.refusal), rate.headers);

  const found = matchRoute(API_ROUTES, req.method ?? "GET", path);
  if (found.kind === "wrong-method")
    return withHeaders(errorResponse(methodNotAllowed(found.allow)), rate.headers);
  if (found.kind === "no-route") {
    return withHeaders(errorResponse(notFound(`No endpoint ${API_PREFIX}${path}`)), rate.headers);
  }
  const ctx: RouteContext = {
    req,
    url,
    tenant,
    principal,
    clock: env.clock,
    ids: env.ids,
    pageTokens: env.pageTokens,
    warehouses: env.warehouses,
    resourceId: null,
  };
  const response = await serveRoute(ctx, found.route, found.params);
  audit(tenant, env.clock, req, url.pathname, {
    principal,
    action: found.route.action,
    resourceId: ctx.resourceId,
    status: response.status,
  });
  return withHeaders(response, rate.headers);
}
