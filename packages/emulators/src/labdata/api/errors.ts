// The platform's error body, {"error": {"message", "type", "userMessage"}}: `message` for the developer,
// `userMessage` fit to show a person. Handlers throw ApiError; the server renders it. Types follow the
// OpenAPI document where it fixes them: BadRequestError and NotFoundError say invalid_request_error.
import { type HttpResponse, jsonResponse } from "../../common/response.js";

export type ErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "rate_limit_error"
  | "server_error";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
    readonly userMessage: string = message,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export function errorBody(error: ApiError): {
  error: { message: string; type: ErrorType; userMessage: string };
} {
  return { error: { message: error.message, type: error.type, userMessage: error.userMessage } };
}

export function errorResponse(error: ApiError): HttpResponse {
  return jsonResponse(error.status, errorBody(error), error.headers);
}

export const badRequest = (message: string): ApiError =>
  new ApiError(400, "invalid_request_error", message, `Invalid request: ${message}`);

// The header tells a client which schemes this API takes; the message never repeats the credential.
export const unauthorized = (message: string): ApiError =>
  new ApiError(
    401,
    "authentication_error",
    message,
    "Your credentials are invalid, expired or missing. Send a valid API key, access token or ID token.",
    { "www-authenticate": 'Basic realm="api", Bearer realm="api"' },
  );

export const forbidden = (message: string): ApiError =>
  new ApiError(403, "permission_error", message, "You do not have permission to do this.");

export const notFound = (message: string): ApiError =>
  new ApiError(404, "invalid_request_error", message, "The requested resource was not found.");

export const methodNotAllowed = (allow: string): ApiError =>
  new ApiError(405, "invalid_request_error", `Method not allowed; use ${allow}`, "Method not allowed.", {
    allow,
  });

export const payloadTooLarge = (message: string): ApiError =>
  new ApiError(413, "invalid_request_error", message, "The request body is too large.");
