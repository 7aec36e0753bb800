// Every request that is not for /_admin: the OAuth endpoints, the token-protected API and the PDF view.
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "../common/http.js";
import { sendNotFound } from "./api-errors.js";
import { handleApiRequest } from "./api-routes.js";
import type { ProtocolsContext } from "./context.js";
import { AUTHORIZE_PATH, errorPage, sendHtml } from "./html-pages.js";
import { handleAuthorizeGet, handleAuthorizePost } from "./oauth-authorize.js";
import { handleToken } from "./oauth-token.js";
import { handlePdfRequest, PDF_PATH } from "./pdf-view.js";

export const TOKEN_PATH = "/api/v3/oauth/token";

export async function handleTenantRequest(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  ctx: ProtocolsContext,
): Promise<void> {
  const method = req.method ?? "GET";
  if (url.pathname === AUTHORIZE_PATH) {
    if (method === "GET" || method === "HEAD") return handleAuthorizeGet(req, res, url, ctx);
    if (method === "POST") return handleAuthorizePost(req, res, ctx);
    return sendHtml(res, 405, errorPage("Method not allowed", "Use GET or POST."), { allow: "GET, POST" });
  }
  if (url.pathname === TOKEN_PATH) {
    if (method === "POST") return handleToken(req, res, ctx);
    return sendJson(
      res,
      405,
      { error: "invalid_request", error_description: "The token endpoint takes POST only." },
      { allow: "POST" },
    );
  }
  if (url.pathname.startsWith("/api/")) return handleApiRequest(req, res, url, ctx);
  const pdf = PDF_PATH.exec(url.pathname);
  if (pdf?.[1]) return handlePdfRequest(req, res, pdf[1], ctx);
  sendNotFound(res);
}
