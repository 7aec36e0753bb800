// The control API every emulator shares under /_admin/: tests and the sandbox inject faults and read the
// request log over HTTP. It has its own secret so a tenant credential can never steer the emulator,
// and it is never logged or faulted, so it cannot disturb the counts tests assert on.
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { Clock } from "./clock.js";
import type { FaultPlan } from "./faults.js";
import { BodyTooLargeError, bearerToken, readBody, secretsEqual, sendEmpty, sendJson } from "./http.js";
import type { RequestLog } from "./request-log.js";

export const ADMIN_PREFIX = "/_admin";

export interface AdminState {
  adminSecret: string;
  faults: FaultPlan;
  requests: RequestLog;
  /** When given, POST /_admin/clock {advanceMs} moves it forward and GET /_admin/clock reads it. */
  clock?: Clock;
}

/**
 * An emulator's own admin endpoints (users, keys, data...), tried after the shared ones. `route` is
 * the path below /_admin, e.g. "/users". Returns false when it has no such route.
 */
export type AdminRoutes = (
  route: string,
  method: string,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
) => Promise<boolean>;

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

function methodNotAllowed(res: ServerResponse, allow: string): void {
  sendJson(res, 405, { error: "method_not_allowed", message: `Use ${allow}` }, { allow });
}

async function injectFault(req: IncomingMessage, res: ServerResponse, state: AdminState): Promise<void> {
  let parsed: z.infer<typeof injectSchema>;
  try {
    parsed = injectSchema.parse(JSON.parse(await readBody(req)));
  } catch (error) {
    const message =
      error instanceof BodyTooLargeError ? error.message : "body must be {fault, path?, times?}";
    sendJson(res, 400, { error: "invalid_request", message });
    return;
  }
  const { fault, path, times } = parsed;
  state.faults.inject(fault, { path, times });
  sendJson(res, 201, { injected: { fault, path: path ?? "/", times: times ?? 1 } });
}

export async function handleAdminRequest(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  state: AdminState,
  ownRoutes?: AdminRoutes,
): Promise<void> {
  if (!secretsEqual(bearerToken(req), state.adminSecret)) {
    sendJson(res, 401, { error: "invalid_token", message: "Admin API needs the admin secret" });
    return;
  }
  const route = url.pathname.slice(ADMIN_PREFIX.length);
  const method = req.method ?? "GET";
  switch (route) {
    case "/health":
      if (method !== "GET") return methodNotAllowed(res, "GET");
      return sendJson(res, 200, { status: "ok" });
    case "/faults":
      if (method === "POST") return injectFault(req, res, state);
      if (method === "DELETE") {
        state.faults.clear();
        return sendEmpty(res);
      }
      return methodNotAllowed(res, "POST, DELETE");
    case "/requests":
      if (method === "GET") {
        return sendJson(res, 200, { count: state.requests.count(), entries: state.requests.entries() });
      }
      if (method === "DELETE") {
        state.requests.clear();
        return sendEmpty(res);
      }
      return methodNotAllowed(res, "GET, DELETE");
    case "/clock":
      if (state.clock) return handleClock(req, res, method, state.clock);
      break;
  }
  if (ownRoutes && (await ownRoutes(route, method, req, res, url))) return;
  sendJson(res, 404, { error: "not_found", message: `No admin endpoint ${url.pathname}` });
}

async function handleClock(
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  clock: Clock,
): Promise<void> {
  if (method === "GET") return sendJson(res, 200, { now: new Date(clock.now()).toISOString() });
  if (method !== "POST") return methodNotAllowed(res, "GET, POST");
  try {
    const { advanceMs } = advanceSchema.parse(JSON.parse(await readBody(req)));
    clock.advance(advanceMs);
  } catch {
    return sendJson(res, 400, {
      error: "invalid_request",
      message: "body must be {advanceMs: integer >= 0}",
    });
  }
  sendJson(res, 200, { now: new Date(clock.now()).toISOString() });
}
