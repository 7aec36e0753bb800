// The token-protected API under /api: identify the caller, count the request against the caller's limit,
// insist on a valid token, then route. Counting comes first so that floods of bad tokens are limited
// (per address) like any other traffic; authentication before routing keeps paths from being probed.
import type { IncomingMessage } from "node:http";
import { decodedSegment, type PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, withHeaders } from "../../common/response.js";
import { matchRoute, type Route, route } from "../../common/routes.js";
import type { ProtocolsContext } from "../context.js";
import { apiVersionOf, errorTextKey } from "../dialect.js";
import type { Protocol } from "../model.js";
import { type ApiRequest, apiAnswer, expiryWarning } from "./api-answer.js";
import { apiMethodNotAllowed, apiNotFound } from "./api-errors.js";
import type { WireView } from "./api-shapes.js";
import { authError, identifyCaller, rateKey } from "./caller.js";
import { listProtocols } from "./list-protocols.js";
import { admit } from "./rate-limits.js";
import { profileAnswer, protocolAnswer, stepsAnswer, visibleProtocol } from "./read-protocol.js";
import { contentFormatOf } from "./rich-text.js";

// The id or URI arrives undecoded: one that cannot be decoded names no protocol, and says so.
function protocolRoute(
  template: string,
  answer: (api: ApiRequest, protocol: Protocol) => HttpResponse,
): Route<ApiRequest> {
  const handle = (api: ApiRequest, params: PathParams): HttpResponse => {
    const protocol = visibleProtocol(api, decodedSegment(params.idOrUri ?? ""));
    return protocol ? answer(api, protocol) : api.answer.notFound("Protocol not found.");
  };
  return route("GET", template, handle, { decode: false });
}

const API_ROUTES: readonly Route<ApiRequest>[] = [
  route("GET", "/api/v3/protocols", listProtocols),
  route("GET", "/api/v3/session/profile", profileAnswer),
  protocolRoute("/api/v4/protocols/:idOrUri", protocolAnswer),
  protocolRoute("/api/v4/protocols/:idOrUri/steps", stepsAnswer),
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
    const api: ApiRequest = { url, viewer: caller.user, ctx, view, answer: apiAnswer(textKey, warning) };
    response = await found.route.handle(api, found.params);
  }
  return withHeaders(response, rate.headers);
}
