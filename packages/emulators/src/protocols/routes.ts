// Every request of the repository that is not for /_admin: the OAuth endpoints, the token-protected
// API under /api and the PDF view. Anything else is a 404 in the API's error format.
import type { IncomingMessage } from "node:http";
import type { HttpResponse } from "../common/response.js";
import { matchRoute, type Route } from "../common/routes.js";
import { apiMethodNotAllowed, apiNotFound } from "./api/api-errors.js";
import { PDF_ROUTE } from "./api/pdf-view.js";
import { answerApiRequest } from "./api/routes.js";
import type { ProtocolsContext, RepositoryRequest } from "./context.js";
import { OAUTH_ROUTES } from "./oauth/routes.js";

const ROUTES: readonly Route<RepositoryRequest>[] = [...OAUTH_ROUTES, PDF_ROUTE];

export async function answerRepositoryRequest(
  req: IncomingMessage,
  url: URL,
  ctx: ProtocolsContext,
): Promise<HttpResponse> {
  const found = matchRoute(ROUTES, req.method ?? "GET", url.pathname, { headAsGet: true });
  if (found.kind === "found") return found.route.handle({ req, url, ctx }, found.params);
  if (found.kind === "wrong-method") return apiMethodNotAllowed(found.allow);
  // The API authenticates and counts every request below /api before it routes, unknown paths too.
  if (url.pathname.startsWith("/api/")) return answerApiRequest(req, url, ctx);
  return apiNotFound();
}
