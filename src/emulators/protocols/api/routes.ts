// The token-protected API under /api: identify the caller, count the request against the caller's limit,
// insist on a valid token, then route. Counting comes first so that floods of bad tokens are limited
// (per address) like any other traffic; authentication before routing keeps paths from being probed.
import type { IncomingMessage } from "node:http";
import { decodedSegment, type PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, withHeaders } from "../../common/response.js";
import { matchRoute, type Route, route } from "../../common/routes.js";
import type { ProtocolsContext } from "../context.js";
import { apiVersionOf, errorTextKey } from "../dialect.js";
import type { User } from "../model.js";
import { type ApiAnswer, apiAnswer, expiryWarning } from "./api-answer.js";
import { apiMethodNotAllowed, apiNotFound } from "./api-errors.js";
import type { WireView } from "./api-shapes.js";
import { authError, identifyCaller, rateKey } from "./caller.js";
import { listProtocols } from "./list-protocols.js";
import { admit } from "./rate-limits.js";
import { getProfile, getProtocol, getSteps } from "./read-protocol.js";
import { contentFormatOf } from "./rich-text.js";

/** What an API route is given: the signed-in user and the request's way to answer in the dialect. */
interface ApiRequest {
  url: URL;
  viewer: User;
  ctx: ProtocolsContext;
  view: WireView;
  answer: ApiAnswer;
}

type ProtocolReader = typeof getProtocol;

// The id or URI arrives undecoded: one that cannot be decoded names no protocol, and says so.
function protocolRoute(template: string, read: ProtocolReader): Route<ApiRequest> {
  const handle = (api: ApiRequest, params: PathParams): HttpResponse => {
    const idOrUri = decodedSegment(params.idOrUri ?? "");
    if (idOrUri === undefined) return api.answer.notFound("Protocol not found.");
    return read(api.answer, idOrUri, api.viewer, api.ctx, api.view);
  };
  return route("GET", template, handle, { decode: false });
}

const API_ROUTES: readonly Route<ApiRequest>[] = [
  route("GET", "/api/v3/protocols", (api) =>
    listProtocols(api.answer, api.url, api.viewer, api.ctx, api.view),
  ),
  route("GET", "/api/v3/session/profile", (api) => getProfile(api.answer, api.viewer)),
  protocolRoute("/api/v4/protocols/:idOrUri", getProtocol),
  protocolRoute("/api/v4/protocols/:idOrUri/steps", getSteps),
];

export async function answerApiRequest(
  req: IncomingMessage,
  url: URL,
  ctx: ProtocolsContext,
): Promise<HttpResponse> {
  const path = url.pathname;
  const version = apiVersionOf(path);
  const textKey = errorTextKey(ctx.dialect, version);
  const caller = identifyCaller(req, ctx);
  const rate = admit(ctx.limits.api, rateKey(caller), "API requests", textKey);
  if (rate.refusal) return withHeaders(rate.refusal, rate.headers);
  if (caller.kind !== "user") return withHeaders(authError(caller, ctx, version), rate.headers);

  const found = matchRoute(API_ROUTES, req.method ?? "GET", path, { headAsGet: true });
  let response: HttpResponse;
  if (found.kind === "no-route") response = apiNotFound("No such API endpoint.", textKey);
  else if (found.kind === "wrong-method") response = apiMethodNotAllowed(found.allow, textKey);
  else {
    const warning = ctx.dialect.expiryWarning ? expiryWarning(caller.expiresAt, ctx.clock.now()) : {};
    const view: WireView = {
      dialect: ctx.dialect,
      version,
      contentFormat: contentFormatOf(url.searchParams.get("content_format")),
      origin: ctx.origin,
    };
    const api = { url, viewer: caller.user, ctx, view, answer: apiAnswer(textKey, warning) };
    response = await found.route.handle(api, found.params);
  }
  return withHeaders(response, rate.headers);
}
