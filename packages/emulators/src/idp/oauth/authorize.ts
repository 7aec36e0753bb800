// GET /authorize checks the request, then either approves at once (the auto-approve test hook) or shows
// the sign-in page; POST /authorize is that page's form: Approve as the chosen person, or Deny. Either
// way the browser goes back to the client's redirect_uri with a code (or an error), state and iss.
import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { cookieValue, setCookie } from "../../common/cookies.js";
import { readParams } from "../../common/request-params.js";
import type { HttpResponse } from "../../common/response.js";
import type { Person } from "../people.js";
import { checkAuthorizationRequest, redirectBack } from "./authorization-request.js";
import type { AuthorizationRequest } from "./checked-request.js";
import type { AuthorizationServerContext } from "./context.js";
import { errorPage, signInPage } from "./sign-in-page.js";

const FORM_COOKIE = "idp_sign_in";
const FORM_COOKIE_SECONDS = 15 * 60;

function approve(
  ctx: AuthorizationServerContext,
  request: AuthorizationRequest,
  person: Person,
): HttpResponse {
  const code = ctx.grants.issueCode(
    {
      clientId: request.clientId,
      redirectUri: request.redirectUri,
      subject: person.subject,
      codeChallenge: request.codeChallenge,
      resource: request.resource,
      scope: request.scope,
      ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
    },
    ctx.settings.codeLifetimeSec,
  );
  return redirectBack(ctx, request.redirectUri, { code, state: request.state });
}

function showSignIn(
  ctx: AuthorizationServerContext,
  request: AuthorizationRequest,
  error?: string,
): HttpResponse {
  // The form's ticket is bound to a nonce cookie set with the page.
  const nonce = randomBytes(24).toString("base64url");
  const ticket = ctx.tickets.issue(request, nonce);
  return signInPage(
    { ...request, people: ctx.people.all(), ticket, ...(error === undefined ? {} : { error }) },
    { "set-cookie": setCookie(FORM_COOKIE, nonce, FORM_COOKIE_SECONDS) },
  );
}

/** GET /authorize. */
export async function showAuthorization(url: URL, ctx: AuthorizationServerContext): Promise<HttpResponse> {
  const checked = await checkAuthorizationRequest(url.searchParams, ctx);
  if (!checked.ok) return checked.refusal;
  const { request } = checked;
  const approvedAs = ctx.approvals.subjectFor(request.clientId);
  const person = approvedAs === undefined ? undefined : ctx.people.find(approvedAs);
  return person ? approve(ctx, request, person) : showSignIn(ctx, request);
}

/** POST /authorize: the sign-in page's form. */
export async function submitSignIn(
  req: IncomingMessage,
  ctx: AuthorizationServerContext,
): Promise<HttpResponse> {
  const parsed = await readParams(req);
  if (!parsed.ok) return errorPage(400, "Invalid form", parsed.message);
  const { params } = parsed;
  const request = ctx.tickets.take(params.ticket, cookieValue(req, FORM_COOKIE));
  if (!request) {
    return errorPage(
      400,
      "Sign-in form expired",
      "This sign-in form has expired or was not shown to this browser. Go back to the application and start again.",
    );
  }
  if (params.decision === "deny") {
    return redirectBack(ctx, request.redirectUri, {
      error: "access_denied",
      error_description: "The person declined to sign in.",
      state: request.state,
    });
  }
  if (params.decision !== "approve") return showSignIn(ctx, request, "Choose Approve or Deny.");
  const person = params.subject === undefined ? undefined : ctx.people.find(params.subject);
  if (!person) return showSignIn(ctx, request, "Choose who signs in.");
  return approve(ctx, request, person);
}
