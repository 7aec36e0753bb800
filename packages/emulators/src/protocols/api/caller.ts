// Who is calling the API: the user behind a valid bearer token (and which kind of token it is), or an
// anonymous caller known only by address, or a caller whose token is invalid or expired.
import type { IncomingMessage } from "node:http";
import { readBearerToken } from "../../common/http.js";
import type { HttpResponse } from "../../common/response.js";
import type { ProtocolsContext } from "../context.js";
import { type ApiVersion, errorTextKey } from "../dialect.js";
import type { User } from "../model.js";
import type { TokenKind } from "../oauth/issued-tokens.js";
import { apiError, StatusCode } from "./api-errors.js";

export type Caller =
  | {
      kind: "user";
      user: User;
      tokenKind: TokenKind;
      clientId: string;
      /** Clock milliseconds; null for tokens that do not expire. */
      expiresAt: number | null;
    }
  | { kind: "anonymous" | "invalid_token" | "expired_token"; address: string };

export function identifyCaller(req: IncomingMessage, ctx: ProtocolsContext): Caller {
  const address = req.socket.remoteAddress ?? "unknown";
  if (req.headers.authorization === undefined) return { kind: "anonymous", address };
  const token = readBearerToken(req);
  const check = token === undefined ? undefined : ctx.tokens.check(token);
  if (!check || check.status === "invalid") return { kind: "invalid_token", address };
  if (check.status === "expired") return { kind: "expired_token", address };
  const user = ctx.store.userById(check.grant.userId);
  if (!user) return { kind: "invalid_token", address };
  const { kind: tokenKind, clientId, expiresAt } = check.grant;
  return { kind: "user", user, tokenKind, clientId, expiresAt };
}

/** Rate limits count per user when the token is valid, otherwise per address. */
export function rateKey(caller: Caller): string {
  return caller.kind === "user" ? `user:${caller.user.id}` : `address:${caller.address}`;
}

// The real service answers bad and expired tokens with HTTP 400 and these texts (fact sheet §10).
const RECORDED_TEXTS = {
  invalid: "Authorization token is not correct, please use header Authorization: Bearer <access_token>",
  expired: "token is expired",
};

// Never echoes the presented token: it might be a real credential sent to the wrong place.
export function authError(
  caller: Exclude<Caller, { kind: "user" }>,
  ctx: ProtocolsContext,
  version: ApiVersion,
): HttpResponse {
  const expired = caller.kind === "expired_token";
  const code = expired ? StatusCode.TOKEN_EXPIRED : StatusCode.INVALID_TOKEN;
  const textKey = errorTextKey(ctx.dialect, version);
  if (ctx.dialect.authErrors === "http400") {
    return apiError(400, code, expired ? RECORDED_TEXTS.expired : RECORDED_TEXTS.invalid, {}, textKey);
  }
  const message = expired
    ? "Token is expired."
    : caller.kind === "anonymous"
      ? "Missing access token: send Authorization: Bearer <ACCESS_TOKEN>."
      : "Invalid access token.";
  return apiError(
    401,
    code,
    message,
    { "www-authenticate": `Bearer realm="protocols", error="invalid_token"` },
    textKey,
  );
}
