// POST /api/v3/oauth/token: exchanges an authorization code, or a refresh token, for an access token and
// a new refresh token. Errors are RFC 6749 section 5.2 bodies {error, error_description}: 401 for client
// authentication failures, 400 for everything else.
import type { IncomingMessage } from "node:http";
import { secretsEqual } from "../../common/http.js";
import { CODE_FAILURES as SHARED_CODE_FAILURES } from "../../common/oauth/authorization-codes.js";
import { readClientCredentials } from "../../common/oauth/client-credentials.js";
import { NO_STORE, oauthErrors } from "../../common/oauth/errors.js";
import { answerGrant } from "../../common/oauth/grant-types.js";
import { readParams } from "../../common/request-params.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import type { ProtocolsContext } from "../context.js";
import type { CodeExchange, TokenPair } from "./issued-tokens.js";

const oauthError = oauthErrors("protocols");

function tokensResponse(ctx: ProtocolsContext, tokens: TokenPair): HttpResponse {
  const body =
    ctx.dialect.tokenResponse === "recorded"
      ? recordedTokenBody(ctx, tokens)
      : {
          access_token: tokens.accessToken,
          token_type: "Bearer",
          expires_in: tokens.expiresIn,
          refresh_token: tokens.refreshToken,
        };
  return jsonResponse(200, body, NO_STORE);
}

// The documented example (fact sheet §2.2): lifetimes as strings, lowercase "bearer", and the extra
// refresh_expires_in, user and status_code. Refresh tokens do not expire here; twice the access
// lifetime stands in, as in the example.
function recordedTokenBody(ctx: ProtocolsContext, tokens: TokenPair) {
  const user = ctx.store.userById(tokens.userId);
  return {
    access_token: tokens.accessToken,
    token_type: "bearer",
    expires_in: String(tokens.expiresIn),
    scope: "readwrite",
    refresh_token: tokens.refreshToken,
    refresh_expires_in: String(tokens.expiresIn * 2),
    user: {
      name: user?.name ?? "",
      affiliation: user?.affiliation || null,
      username: user?.username ?? "",
      link: null,
      image: { source: `${ctx.origin}/img/avatar.png`, placeholder: `${ctx.origin}/img/avatar.png` },
    },
    status_code: 0,
  };
}

type ClientCheck = { ok: true; clientId: string } | { ok: false; status: 400 | 401; message: string };

function authenticateClient(
  req: IncomingMessage,
  params: Record<string, string>,
  ctx: ProtocolsContext,
): ClientCheck {
  const presented = readClientCredentials(req, params);
  if (!presented.ok) return { ok: false, status: presented.status, message: presented.description };
  const { clientId, secret } = presented;
  if (!clientId || secret === undefined) {
    return { ok: false, status: 401, message: "Client authentication needs client_id and client_secret." };
  }
  const app = ctx.store.application(clientId);
  if (!app || !secretsEqual(secret, app.clientSecret)) {
    return { ok: false, status: 401, message: "Unknown client or wrong client secret." };
  }
  return { ok: true, clientId };
}

const CODE_FAILURES: Record<Exclude<CodeExchange, { ok: true }>["reason"], string> = {
  ...SHARED_CODE_FAILURES,
  verifier_missing: "code_verifier is required: the authorization request sent a code_challenge.",
  verifier_unexpected: "code_verifier was sent, but the authorization request had no code_challenge.",
};

function exchangeCode(ctx: ProtocolsContext, clientId: string, params: Record<string, string>): HttpResponse {
  if (!params.code) return oauthError(400, "invalid_request", "code is required.");
  if (!params.redirect_uri) return oauthError(400, "invalid_request", "redirect_uri is required.");
  const lifetime = ctx.settings.accessTokenLifetimeSeconds;
  const verifier = params.code_verifier || undefined;
  const outcome = ctx.tokens.exchangeCode(params.code, clientId, params.redirect_uri, lifetime, verifier);
  if (outcome.ok) return tokensResponse(ctx, outcome.tokens);
  return oauthError(400, "invalid_grant", CODE_FAILURES[outcome.reason]);
}

function refresh(ctx: ProtocolsContext, clientId: string, params: Record<string, string>): HttpResponse {
  if (!params.refresh_token) return oauthError(400, "invalid_request", "refresh_token is required.");
  const tokens = ctx.tokens.refresh(params.refresh_token, clientId, ctx.settings.accessTokenLifetimeSeconds);
  if (tokens) return tokensResponse(ctx, tokens);
  const reason = "The refresh token is not valid, was already used, or belongs to another client.";
  return oauthError(400, "invalid_grant", reason);
}

/** POST /api/v3/oauth/token. */
export async function answerTokenRequest(req: IncomingMessage, ctx: ProtocolsContext): Promise<HttpResponse> {
  const parsed = await readParams(req);
  if (!parsed.ok) return oauthError(400, "invalid_request", parsed.message);
  const { params } = parsed;
  const client = authenticateClient(req, params, ctx);
  if (!client.ok) {
    return oauthError(
      client.status,
      client.status === 401 ? "invalid_client" : "invalid_request",
      client.message,
    );
  }
  return answerGrant(
    params.grant_type,
    {
      authorization_code: () => exchangeCode(ctx, client.clientId, params),
      refresh_token: () => refresh(ctx, client.clientId, params),
    },
    oauthError,
  );
}
