// GET/POST /api/v3/oauth/authorize: the browser side of the authorization code flow. A request naming an
// unknown client or a redirect_uri other than the registered one gets an error page and is never
// redirected; other errors go back to the registered redirect_uri, as RFC 6749 section 4.1.2.1 says.
// Then: sign-in form (when nobody is signed in), consent page, and a 302 to redirect_uri with the code.
import type { IncomingMessage } from "node:http";
import { cookieValue, setCookie } from "../../common/cookies.js";
import { secretsEqual } from "../../common/http.js";
import { redirectWith, single } from "../../common/oauth/authorization-params.js";
import { isS256Challenge } from "../../common/oauth/pkce.js";
import { readParams } from "../../common/request-params.js";
import { emptyResponse, type HttpResponse } from "../../common/response.js";
import type { ProtocolsContext } from "../context.js";
import type { User } from "../model.js";
import { newOpaqueId } from "../new-secrets.js";
import type { AuthorizationRequest } from "./authorization-request.js";
import { AUTHORIZE_PATH, consentPage, errorPage, htmlResponse, signInPage } from "./html-pages.js";

const SIGN_IN_COOKIE = "protocols_sign_in";
const SIGN_IN_SECONDS = 15 * 60;

function fail(title: string, message: string): HttpResponse {
  return htmlResponse(400, errorPage(title, message));
}

/** The validated request, or the error page or error redirect that refuses it. */
function validateRequest(
  params: URLSearchParams,
  ctx: ProtocolsContext,
): AuthorizationRequest | { refusal: HttpResponse } {
  const clientId = single(params, "client_id");
  if (typeof clientId !== "string") {
    return { refusal: fail("Invalid request", "The authorization request needs exactly one client_id.") };
  }
  const app = ctx.store.application(clientId);
  if (!app) {
    return { refusal: fail("Unknown application", "No application is registered with this client_id.") };
  }
  const redirectUri = redirectParam(params, ctx);
  if (typeof redirectUri !== "string") return { refusal: fail("Invalid request", redirectUri.problem) };
  if (redirectUri !== app.redirectUri) {
    return {
      refusal: fail(
        "Invalid redirect_uri",
        "The redirect_uri is not the one registered for this application.",
      ),
    };
  }
  const state = single(params, "state");
  const responseType = single(params, "response_type");
  const pkce = pkceOf(params);
  const error =
    typeof state === "object"
      ? { error: "invalid_request", error_description: "state is sent more than once" }
      : typeof responseType !== "string"
        ? { error: "invalid_request", error_description: "response_type is required and must be code" }
        : responseType !== "code"
          ? { error: "unsupported_response_type", error_description: "response_type must be code" }
          : "problem" in pkce
            ? { error: "invalid_request", error_description: pkce.problem }
            : undefined;
  if (error) {
    return {
      refusal: redirectWith(redirectUri, { ...error, state: typeof state === "string" ? state : undefined }),
    };
  }
  return {
    clientId,
    redirectUri,
    state: state as string | undefined,
    ...("challenge" in pkce ? { codeChallenge: pkce.challenge } : {}),
  };
}

/**
 * The spec's redirect_uri; the real service documents redirect_url (fact sheet §2.1), which the `either`
 * dialect takes too. When both are sent they must agree.
 */
function redirectParam(params: URLSearchParams, ctx: ProtocolsContext): string | { problem: string } {
  const uri = single(params, "redirect_uri");
  const names = ctx.dialect.redirectParam === "either" ? "redirect_uri (or redirect_url)" : "redirect_uri";
  const problem = { problem: `The authorization request needs exactly one ${names}.` };
  if (ctx.dialect.redirectParam !== "either") return typeof uri === "string" ? uri : problem;
  const url = single(params, "redirect_url");
  if (typeof uri === "object" || typeof url === "object") return problem;
  if (uri !== undefined && url !== undefined && uri !== url)
    return { problem: "redirect_uri and redirect_url differ." };
  return uri ?? url ?? problem;
}

/**
 * PKCE is optional (the real service documents none); when sent, only S256 with a base64url SHA-256
 * (43 characters) is taken: "plain" would give no protection against a code stolen on the way back.
 */
function pkceOf(params: URLSearchParams): { challenge: string } | { problem: string } | { none: true } {
  const challenge = single(params, "code_challenge");
  const method = single(params, "code_challenge_method");
  if (typeof challenge === "object" || typeof method === "object")
    return { problem: "code_challenge and code_challenge_method must be sent once" };
  if (challenge === undefined)
    return method === undefined
      ? { none: true }
      : { problem: "code_challenge_method is sent without code_challenge" };
  if (method !== "S256") return { problem: "code_challenge_method must be S256" };
  if (!isS256Challenge(challenge))
    return { problem: "code_challenge must be 43 base64url characters (a SHA-256 digest)" };
  return { challenge };
}

/** The signed-in user, and what their forms' tickets are bound to. */
function signedIn(req: IncomingMessage, ctx: ProtocolsContext): { user: User; binding: string } | undefined {
  const session = ctx.sessions.current(req);
  const sessionUser = session && ctx.store.userById(session.userId);
  if (session && sessionUser) return { user: sessionUser, binding: `session:${session.sessionId}` };
  const name = ctx.settings.browserSessionUser;
  const settingUser = name === null ? undefined : ctx.store.userByName(name);
  if (settingUser) return { user: settingUser, binding: `as:${settingUser.username}` };
  return undefined;
}

function appName(ctx: ProtocolsContext, clientId: string): string {
  return ctx.store.application(clientId)?.name ?? "the application";
}

function showSignIn(
  ctx: ProtocolsContext,
  request: AuthorizationRequest,
  extra: { error?: string; username?: string } = {},
): HttpResponse {
  const nonce = newOpaqueId();
  const ticket = ctx.tickets.issue(request, `sign-in:${nonce}`);
  return htmlResponse(200, signInPage({ appName: appName(ctx, request.clientId), ticket, ...extra }), {
    "set-cookie": setCookie(SIGN_IN_COOKIE, nonce, SIGN_IN_SECONDS),
  });
}

function showConsent(
  ctx: ProtocolsContext,
  request: AuthorizationRequest,
  identity: { user: User; binding: string },
): HttpResponse {
  const app = ctx.store.application(request.clientId);
  const owner = app && ctx.store.userById(app.ownerId);
  const ticket = ctx.tickets.issue(request, identity.binding);
  const html = consentPage({
    appName: app?.name ?? "the application",
    appOwner: owner?.name ?? "an unknown developer",
    userName: identity.user.name,
    username: identity.user.username,
    redirectUri: request.redirectUri,
    ticket,
  });
  return htmlResponse(200, html);
}

/** GET (and HEAD): the sign-in form, or the consent page when someone is signed in. */
export function showAuthorizePage(req: IncomingMessage, url: URL, ctx: ProtocolsContext): HttpResponse {
  const request = validateRequest(url.searchParams, ctx);
  if ("refusal" in request) return request.refusal;
  const identity = signedIn(req, ctx);
  return identity ? showConsent(ctx, request, identity) : showSignIn(ctx, request);
}

function signIn(req: IncomingMessage, ctx: ProtocolsContext, params: Record<string, string>): HttpResponse {
  const nonce = cookieValue(req, SIGN_IN_COOKIE);
  const request = nonce === undefined ? undefined : ctx.tickets.take(params.ticket, `sign-in:${nonce}`);
  if (!request) {
    return fail(
      "Sign-in form expired",
      "This sign-in form has expired or was not shown to this browser. Go back to the application and start again.",
    );
  }
  const user = ctx.store.userByName(params.username ?? "");
  if (!user || !secretsEqual(params.password ?? "", user.password)) {
    return showSignIn(ctx, request, { error: "Wrong username or password.", username: params.username });
  }
  const query = new URLSearchParams({
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    response_type: "code",
  });
  if (request.state !== undefined) query.set("state", request.state);
  if (request.codeChallenge !== undefined) {
    query.set("code_challenge", request.codeChallenge);
    query.set("code_challenge_method", "S256");
  }
  return emptyResponse(303, {
    location: `${AUTHORIZE_PATH}?${query}`,
    "set-cookie": [ctx.sessions.signIn(user.id), setCookie(SIGN_IN_COOKIE, "", 0)],
    "cache-control": "no-store",
  });
}

function decide(req: IncomingMessage, ctx: ProtocolsContext, params: Record<string, string>): HttpResponse {
  const identity = signedIn(req, ctx);
  const request = identity && ctx.tickets.take(params.ticket, identity.binding);
  const app = request && ctx.store.application(request.clientId);
  if (!identity || !request || !app || app.redirectUri !== request.redirectUri) {
    return fail(
      "Consent form expired",
      "This consent form has expired or was not shown to this browser. Go back to the application and start again.",
    );
  }
  if (params.decision === "deny") {
    return redirectWith(request.redirectUri, {
      error: "access_denied",
      error_description: "The user denied access",
      state: request.state,
    });
  }
  const code = ctx.tokens.issueCode(
    {
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      userId: identity.user.id,
      codeChallenge: request.codeChallenge,
    },
    ctx.settings.codeLifetimeSeconds,
  );
  return redirectWith(request.redirectUri, { code, state: request.state });
}

/** POST: the sign-in form or the consent form. */
export async function submitAuthorizeForm(
  req: IncomingMessage,
  ctx: ProtocolsContext,
): Promise<HttpResponse> {
  const parsed = await readParams(req);
  if (!parsed.ok) return fail("Invalid form", parsed.message);
  const { params } = parsed;
  if (params.action === "sign_in") return signIn(req, ctx, params);
  if (params.decision === "approve" || params.decision === "deny") return decide(req, ctx, params);
  return fail("Invalid form", "The form must be the sign-in form or the consent form.");
}
