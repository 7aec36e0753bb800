// Every emulator's way from a request to its answer: the admin API under /_admin (never logged, never
// faulted, so it cannot disturb what tests count), then the request log, then any injected fault, then
// the emulator's own answer. Handlers return response values; this is where they are written.
import type { IncomingMessage } from "node:http";
import {
  type AdminRoutes,
  type AdminState,
  adminRouteTable,
  answerAdminRequest,
  isAdminPath,
} from "./admin.js";
import { applyFault } from "./faults.js";
import type { RequestHandler } from "./https-server.js";
import { type HttpResponse, writeResponse } from "./response.js";

/** An emulator's answer to a request outside /_admin; `url` holds the path and query. */
export type AnswerRequest = (req: IncomingMessage, url: URL) => HttpResponse | Promise<HttpResponse>;

export function requestPipeline(options: {
  admin: AdminState;
  adminRoutes?: AdminRoutes;
  answer: AnswerRequest;
}): RequestHandler {
  const { admin } = options;
  const adminRoutes = adminRouteTable(admin, options.adminRoutes);
  return async (req, res, url) => {
    if (isAdminPath(url.pathname)) {
      return writeResponse(res, await answerAdminRequest(req, url, admin, adminRoutes));
    }
    admin.requests.record(req, url);
    const fault = admin.faults.take(url.pathname);
    if (fault && (await applyFault(fault, req, res)) === "handled") return;
    writeResponse(res, await options.answer(req, url));
  };
}
