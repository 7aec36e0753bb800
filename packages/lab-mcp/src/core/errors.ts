// The one error boundary: every failure a tool can meet becomes one of the exact texts of the
// conventions. Handlers throw; only this file decides what the agent reads.

/** The remote answered with a non-success status. */
export class RemoteStatusError extends Error {
  override readonly name = "RemoteStatusError";
  constructor(
    readonly status: number,
    readonly retryAfterMs?: number,
    /**
     * The remote's error body (parsed JSON, else text; cut at a few KB), for a service that reads its
     * remote's error codes. Never shown to the agent: errorText() looks at the status only.
     */
    readonly body?: unknown,
  ) {
    super(`Remote answered with status ${status}`);
  }
}

/** The remote did not answer within the request timeout. */
export class RemoteTimeoutError extends Error {
  override readonly name = "RemoteTimeoutError";
  constructor(readonly timeoutMs: number) {
    super(`Remote did not answer within ${timeoutMs} ms`);
  }
}

/** The connection failed or was dropped before a whole answer arrived. */
export class ConnectionError extends Error {
  override readonly name: string = "ConnectionError";
  /** Its kind in the call log; the causes told apart (core/http/network-error.ts) say more. */
  readonly kind: ErrorKind = "unexpected";
}

/**
 * The remote's answer is larger than this process reads (MCP_MAX_RESPONSE_BYTES, or the PDF limit):
 * the rest was not read and the connection was closed.
 */
export class ResponseTooLargeError extends Error {
  override readonly name = "ResponseTooLargeError";
  constructor(readonly limitBytes: number) {
    super(`The remote's answer is larger than ${limitBytes} bytes`);
  }
}

/** The remote answered 2xx with a body we cannot read (malformed JSON, wrong shape, cut short). */
export class InvalidResponseError extends Error {
  override readonly name = "InvalidResponseError";
}

/** Arguments that failed validation; the message tells the model what to change. */
export class InvalidInputError extends Error {
  override readonly name = "InvalidInputError";
}

/**
 * A failure the user or agent can fix, shown as written (e.g. "no credential is configured: set ...").
 * Never put a credential in its message.
 */
export class ActionableError extends Error {
  override readonly name = "ActionableError";
}

const STATUS_TEXTS: Record<number, string> = {
  401: "Error: Invalid API authentication",
  403: "Error: Permission denied. You don't have access to this resource.",
  404: "Error: Resource not found. Please check the ID is correct.",
  429: "Error: Rate limit exceeded. Please wait before making more requests.",
};

export const TIMEOUT_TEXT = "Error: Request timed out. Please try again.";

/** The exact text an agent reads for any thrown value. */
export function errorText(error: unknown): string {
  if (error instanceof RemoteStatusError) {
    return STATUS_TEXTS[error.status] ?? `Error: API request failed with status ${error.status}`;
  }
  if (error instanceof RemoteTimeoutError) return TIMEOUT_TEXT;
  if (error instanceof InvalidInputError) return error.message;
  if (error instanceof ActionableError) return `Error: ${error.message}`;
  return `Error: Unexpected error occurred: ${typeName(error)}`;
}

/**
 * The kind of the text errorText gives, for metrics and logs: a closed set, never the text itself (an
 * ActionableError's or InvalidInputError's message may quote what the caller sent).
 */
export type ErrorKind =
  | "auth_failed"
  | "permission_denied"
  | "not_found"
  | "rate_limited"
  | "remote_status"
  | "timeout"
  | "invalid_input"
  | "action_needed"
  | "unexpected"
  | "certificate_untrusted"
  | "host_not_found"
  | "connection_refused"
  | "proxy_failed"
  | "unknown_tool"
  | "tool_unavailable";

const STATUS_KINDS: Record<number, ErrorKind> = {
  401: "auth_failed",
  403: "permission_denied",
  404: "not_found",
  429: "rate_limited",
};

/** The kind of the text an agent reads for a thrown value (see errorText). */
export function errorKind(error: unknown): ErrorKind {
  if (error instanceof RemoteStatusError) return STATUS_KINDS[error.status] ?? "remote_status";
  if (error instanceof RemoteTimeoutError) return "timeout";
  if (error instanceof InvalidInputError) return "invalid_input";
  if (error instanceof ActionableError) return "action_needed";
  if (error instanceof ConnectionError) return error.kind;
  return "unexpected";
}

function typeName(error: unknown): string {
  if (error instanceof Error) return error.name || error.constructor.name || "Error";
  if (error === null) return "null";
  return typeof error === "object" ? (error.constructor?.name ?? "Object") : typeof error;
}
