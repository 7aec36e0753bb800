// The OAuth endpoints: the browser's authorize page (GET shows it, POST submits its forms) and the
// token endpoint. Each answers a wrong method in its own format: a page for a browser, JSON for a client.
import { postOnly } from "../../common/oauth/errors.js";
import { ANY_METHOD, type Route, route } from "../../common/routes.js";
import type { RepositoryRequest } from "../context.js";
import { showAuthorizePage, submitAuthorizeForm } from "./authorize.js";
import { AUTHORIZE_PATH, errorPage, htmlResponse } from "./html-pages.js";
import { answerTokenRequest } from "./token.js";

export const TOKEN_PATH = "/api/v3/oauth/token";

export const OAUTH_ROUTES: readonly Route<RepositoryRequest>[] = [
  route("GET", AUTHORIZE_PATH, ({ req, url, ctx }) => showAuthorizePage(req, url, ctx)),
  route("POST", AUTHORIZE_PATH, ({ req, ctx }) => submitAuthorizeForm(req, ctx)),
  route(ANY_METHOD, AUTHORIZE_PATH, () =>
    htmlResponse(405, errorPage("Method not allowed", "Use GET or POST."), { allow: "GET, POST" }),
  ),
  route("POST", TOKEN_PATH, ({ req, ctx }) => answerTokenRequest(req, ctx)),
  route(ANY_METHOD, TOKEN_PATH, () => postOnly("The token endpoint takes POST only.")),
];
