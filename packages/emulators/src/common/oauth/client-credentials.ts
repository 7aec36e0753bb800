// How a client presents itself at a token endpoint (RFC 6749 section 2.3.1): client_id and secret in
// HTTP Basic or in the form body. Either is taken; both secrets at once, a body client_id other than
// the Basic one, or malformed Basic credentials are refused. Each server then looks the client up.
import type { IncomingMessage } from "node:http";
import { readBasicCredentials } from "../http.js";

export type PresentedCredentials =
  | { ok: true; clientId: string | undefined; secret: string | undefined }
  | { ok: false; status: 400 | 401; error: "invalid_client" | "invalid_request"; description: string };

export function readClientCredentials(
  req: IncomingMessage,
  params: Record<string, string>,
): PresentedCredentials {
  const basic = readBasicCredentials(req);
  if (basic === "malformed")
    return {
      ok: false,
      status: 401,
      error: "invalid_client",
      description: "The Basic credentials are malformed.",
    };
  if (basic && params.client_secret !== undefined) {
    const description = "Send the client secret in the body or in Basic, not both.";
    return { ok: false, status: 400, error: "invalid_request", description };
  }
  if (basic && params.client_id !== undefined && params.client_id !== basic.id) {
    const description = "client_id differs from the Basic credentials.";
    return { ok: false, status: 400, error: "invalid_request", description };
  }
  return { ok: true, clientId: basic?.id ?? params.client_id, secret: basic?.secret ?? params.client_secret };
}
