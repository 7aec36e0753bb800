// The public endpoints of the identity provider, as a route table: metadata under both well-known
// paths, the keys, and the OAuth endpoints. A wrong method gets 405 in the endpoint's own format: a
// page for the browser's /authorize, JSON for the rest.
import type { IncomingMessage } from "node:http";
import { postOnly as sharedPostOnly } from "../../common/oauth/errors.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { ANY_METHOD, type Route, route } from "../../common/routes.js";
import { showAuthorization, submitSignIn } from "./authorize.js";
import type { AuthorizationServerContext } from "./context.js";
import { answerIntrospection } from "./introspect.js";
import {
  AUTHORIZE_PATH,
  authorizationServerMetadata,
  DISCOVERY_PATH,
  INTROSPECT_PATH,
  JWKS_PATH,
  OAUTH_METADATA_PATH,
  REGISTER_PATH,
  REVOKE_PATH,
  TOKEN_PATH,
} from "./metadata.js";
import { answerRegistration } from "./register.js";
import { answerRevocation } from "./revoke.js";
import { errorPage } from "./sign-in-page.js";
import { answerTokenRequest } from "./token.js";

/** A request to a public endpoint; `url` holds its path and query. */
export interface PublicRequest {
  req: IncomingMessage;
  url: URL;
  ctx: AuthorizationServerContext;
}

function metadata({ ctx }: PublicRequest): HttpResponse {
  return jsonResponse(200, authorizationServerMetadata(ctx.issuer(), ctx.settings.scopes));
}

const postOnly = () => sharedPostOnly("This endpoint takes POST only.");

export const PUBLIC_ROUTES: readonly Route<PublicRequest>[] = [
  route("GET", OAUTH_METADATA_PATH, metadata),
  route("GET", DISCOVERY_PATH, metadata),
  route("GET", JWKS_PATH, ({ ctx }) => jsonResponse(200, ctx.keys.jwks())),
  route("GET", AUTHORIZE_PATH, ({ url, ctx }) => showAuthorization(url, ctx)),
  route("POST", AUTHORIZE_PATH, ({ req, ctx }) => submitSignIn(req, ctx)),
  route(ANY_METHOD, AUTHORIZE_PATH, () => {
    const page = errorPage(405, "Method not allowed", "Use GET or POST.");
    return { ...page, headers: { ...page.headers, allow: "GET, POST" } };
  }),
  route("POST", TOKEN_PATH, ({ req, ctx }) => answerTokenRequest(req, ctx)),
  route(ANY_METHOD, TOKEN_PATH, postOnly),
  route("POST", REGISTER_PATH, ({ req, ctx }) => answerRegistration(req, ctx)),
  route(ANY_METHOD, REGISTER_PATH, postOnly),
  route("POST", REVOKE_PATH, ({ req, ctx }) => answerRevocation(req, ctx)),
  route(ANY_METHOD, REVOKE_PATH, postOnly),
  route("POST", INTROSPECT_PATH, ({ req, ctx }) => answerIntrospection(req, ctx)),
  route(ANY_METHOD, INTROSPECT_PATH, postOnly),
];
