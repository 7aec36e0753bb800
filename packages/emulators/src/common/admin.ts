// The control API every emulator shares under /_admin/: tests and the sandbox inject faults and read the
// request log over HTTP. It has its own secret so a tenant credential can never steer the emulator,
// and it is never logged or faulted, so it cannot disturb the counts tests assert on.
import type { IncomingMessage } from "node:http";
import { z } from "zod";
import type { Clock } from "./clock.js";
import type { FaultPlan } from "./faults.js";
import { BodyTooLargeError, readBearerToken, readBody, secretsEqual } from "./http.js";
import type { RequestLog } from "./request-log.js";
import { emptyResponse, type HttpResponse, jsonResponse } from "./response.js";
import { matchRoute, type Route, route } from "./routes.js";

export const ADMIN_PREFIX = "/_admin";

export interface AdminState {
  adminSecret: string;
  faults: FaultPlan;
  requests: RequestLog;
  /** When given, POST /_admin/clock {advanceMs} moves it forward and GET /_admin/clock reads it. */
  clock?: Clock;
}

/** What an admin route handler is given; its path template is the path below /_admin, e.g. "/users". */
export interface AdminRequest {
  req: IncomingMessage;
  url: URL;
}

export type AdminRoute = Route<AdminRequest>;

/** An emulator's own admin endpoints (users, keys, data...), listed after the shared ones. */
export type AdminRoutes = readonly AdminRoute[];

const advanceSchema = z.object({
  advanceMs: z
    .number()
    .int()
    .min(0)
    .max(10 * 365 * 24 * 3600 * 1000),
});

const faultSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("delay"), ms: z.number().int().min(0).max(600_000) }),
  z.object({
    kind: z.literal("status"),
    status: z.number().int().min(100).max(599),
    body: z.string().optional(),
    headers: z.record(z.string(), z.string()).optional(),
  }),
  z.object({ kind: z.literal("drop") }),
  z.object({ kind: z.literal("malformed") }),
  z.object({ kind: z.literal("truncated") }),
]);

const injectSchema = z.object({
  fault: faultSchema,
  path: z.string().startsWith("/").optional(),
  times: z.number().int().min(1).optional(),
});

export function isAdminPath(pathname: string): boolean {
  return pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`);
}

/** The answer every admin API gives a path that exists but not for the method. */
function adminMethodNotAllowed(allow: string): HttpResponse {
  return jsonResponse(405, { error: "method_not_allowed", message: `Use ${allow}` }, { allow });
}

async function injectFault(req: IncomingMessage, state: AdminState): Promise<HttpResponse> {
  let parsed: z.infer<typeof injectSchema>;
  try {
    parsed = injectSchema.parse(JSON.parse(await readBody(req)));
  } catch (error) {
    const message =
      error instanceof BodyTooLargeError ? error.message : "body must be {fault, path?, times?}";
    return jsonResponse(400, { error: "invalid_request", message });
  }
  const { fault, path, times } = parsed;
  state.faults.inject(fault, { path, times });
  return jsonResponse(201, { injected: { fault, path: path ?? "/", times: times ?? 1 } });
}

async function advanceClock(req: IncomingMessage, clock: Clock): Promise<HttpResponse> {
  try {
    const { advanceMs } = advanceSchema.parse(JSON.parse(await readBody(req)));
    clock.advance(advanceMs);
  } catch {
    return jsonResponse(400, {
      error: "invalid_request",
      message: "body must be {advanceMs: integer >= 0}",
    });
  }
  return jsonResponse(200, { now: new Date(clock.now()).toISOString() });
}

/** The shared endpoints, then the emulator's own: built once per emulator. */
export function adminRouteTable(state: AdminState, ownRoutes: AdminRoutes = []): AdminRoutes {
  const routes: AdminRoute[] = [
    route("GET", "/health", () => jsonResponse(200, { status: "ok" })),
    route("POST", "/faults", ({ req }) => injectFault(req, state)),
    route("DELETE", "/faults", () => {
      state.faults.clear();
      return emptyResponse();
    }),
    route("GET", "/requests", () =>
      jsonResponse(200, { count: state.requests.count(), entries: state.requests.entries() }),
    ),
    route("DELETE", "/requests", () => {
      state.requests.clear();
      return emptyResponse();
    }),
  ];
  const { clock } = state;
  if (clock) {
    routes.push(
      route("GET", "/clock", () => jsonResponse(200, { now: new Date(clock.now()).toISOString() })),
      route("POST", "/clock", ({ req }) => advanceClock(req, clock)),
    );
  }
  return [...routes, ...ownRoutes];
}

/** The admin API's answer to a request below /_admin, from the emulator's adminRouteTable. */
export async function answerAdminRequest(
  req: IncomingMessage,
  url: URL,
  state: AdminState,
  routes: AdminRoutes,
): Promise<HttpResponse> {
  if (!secretsEqual(readBearerToken(req), state.adminSecret)) {
    return jsonResponse(401, { error: "invalid_token", message: "Admin API needs the admin secret" });
  }
  const path = url.pathname.slice(ADMIN_PREFIX.length);
  const found = matchRoute(routes, req.method ?? "GET", path);
  switch (found.kind) {
    case "found":
      return found.route.handle({ req, url }, found.params);
    case "wrong-method":
      return adminMethodNotAllowed(found.allow);
    case "no-route":
      return jsonResponse(404, { error: "not_found", message: `No admin endpoint ${url.pathname}` });
  }
}
