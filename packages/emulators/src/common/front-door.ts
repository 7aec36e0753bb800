// Every emulator's way in: the admin API under /_admin (never logged, never faulted, so it cannot
// disturb what tests count), then the request log, then any injected fault, then the service itself.
import type { IncomingMessage, ServerResponse } from "node:http";
import { type AdminRoutes, type AdminState, handleAdminRequest, isAdminPath } from "./admin.js";
import { applyFault } from "./faults.js";

export type ServeRequest = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

export function frontDoor(options: {
  admin: AdminState;
  adminRoutes?: AdminRoutes;
  serve: ServeRequest;
}): ServeRequest {
  const { admin } = options;
  return async (req, res, url) => {
    if (isAdminPath(url.pathname)) return handleAdminRequest(req, res, url, admin, options.adminRoutes);
    admin.requests.record(req, url);
    const fault = admin.faults.take(url.pathname);
    if (fault && (await applyFault(fault, req, res)) === "handled") return;
    return options.serve(req, res, url);
  };
}
