// The checks of an authorization request (OAuth 2.1 section 4.1.1, RFC 7636, RFC 8707). A request that
// names an unknown client, or a redirect_uri the client does not have, gets an error page and is never
// redirected; any other fault goes back to the redirect_uri as error, state and iss (RFC 9207).
import { redirectWith, single } from "../../common/oauth/authorization-params.js";
import { isS256Challenge } from "../../common/oauth/pkce.js";
import type { HttpResponse } from "../../common/response.js";
import type { AuthorizationRequest } from "./checked-request.js";
import type { AuthorizationServerContext } from "./context.js";
import { errorPage } from "./sign-in-page.js";

export type RequestCheck = { ok: true; request: AuthorizationRequest } | { ok: false; refusal: HttpResponse };

export function redirectBack(
  ctx: AuthorizationServerContext,
  redirectUri: string,
  params: Record<string, string | undefined>,
): HttpResponse {
  return redirectWith(redirectUri, { ...params, iss: ctx.issuer() });
}

/** A resource indicator: an absolute URI without a fragment (RFC 8707 section 2). */
function resourceProblem(resource: string): string | undefined {
  try {
    const url = new URL(resource);
    return url.hash === "" && !resource.includes("#") ? undefined : "resource must not have a fragment";
  } catch {
    return "resource must be an absolute URI";
  }
}

type Fault = { error: string; description: string };

/** The request's OAuth parameters once checked, or the fault to send back to the redirect_uri. */

function readRequestParams(
  params: URLSearchParams,
  ctx: AuthorizationServerContext,
): Fault | { challenge: string; resource: string; scope: string; nonce: string | undefined } {
  const fault = (error: string, description: string): Fault => ({ error, description });
  const responseType = single(params, "response_type");
  if (responseType === undefined || typeof responseType === "object")
    return fault("invalid_request", "response_type is required, once, and must be code.");
  if (responseType !== "code") return fault("unsupported_response_type", "response_type must be code.");

  const challenge = single(params, "code_challenge");
  const method = single(params, "code_challenge_method");
  if (typeof challenge !== "string")
    return fault("invalid_request", "code_challenge is required (PKCE), once.");
  if (method !== "S256")
    return fault("invalid_request", "code_challenge_method must be S256; plain is not accepted.");
  if (!isS256Challenge(challenge))
    return fault("invalid_request", "code_challenge must be 43 base64url characters (a SHA-256 digest).");

  const resources = params.getAll("resource");
  if (resources.length > 1)
    return fault("invalid_target", "Name one resource: the token is for one audience.");
  const resource = resources[0] || ctx.settings.defaultResource;
  if (resource === undefined) return fault("invalid_target", "resource is required (RFC 8707).");
  const badResource = resourceProblem(resource);
  if (badResource) return fault("invalid_target", badResource);

  const scopeParam = single(params, "scope");
  if (typeof scopeParam === "object") return fault("invalid_request", "scope is sent more than once.");
  const scopes = (scopeParam ?? ctx.settings.defaultScope).split(" ").filter(Boolean);
  const unknown = scopes.filter((s) => !ctx.settings.scopes.includes(s));
  if (unknown.length > 0) return fault("invalid_scope", `Unknown scope: ${unknown.join(" ")}.`);

  const nonce = single(params, "nonce");
  if (typeof nonce === "object") return fault("invalid_request", "nonce is sent more than once.");
  return { challenge, resource, scope: [...new Set(scopes)].join(" "), nonce };
}

export async function checkAuthorizationRequest(
  params: URLSearchParams,
  ctx: AuthorizationServerContext,
): Promise<RequestCheck> {
  const page = (title: string, message: string): RequestCheck => ({
    ok: false,
    refusal: errorPage(400, title, message),
  });
  const clientId = single(params, "client_id");
  if (typeof clientId !== "string")
    return page("Invalid request", "The authorization request needs exactly one client_id.");
  const found = await ctx.clients.find(clientId);
  if (!found.ok) return page("Unknown application", found.problem);
  const redirectUri = single(params, "redirect_uri");
  if (typeof redirectUri !== "string")
    return page("Invalid request", "The authorization request needs exactly one redirect_uri.");
  if (!found.client.redirectUris.includes(redirectUri))
    return page("Invalid redirect_uri", "The redirect_uri is not one registered for this application.");

  const state = single(params, "state");
  if (typeof state === "object") {
    return {
      ok: false,
      refusal: redirectBack(ctx, redirectUri, {
        error: "invalid_request",
        error_description: "state is sent more than once.",
      }),
    };
  }
  const checked = readRequestParams(params, ctx);
  if ("error" in checked) {
    return {
      ok: false,
      refusal: redirectBack(ctx, redirectUri, {
        error: checked.error,
        error_description: checked.description,
        state,
      }),
    };
  }
  return {
    ok: true,
    request: {
      clientId,
      clientName: found.client.name,
      redirectUri,
      state,
      codeChallenge: checked.challenge,
      resource: checked.resource,
      scope: checked.scope,
      nonce: checked.nonce,
    },
  };
}
