// Writing the HTTP transport's own answers (JSON errors, JSON-RPC errors, the SDK's web Responses) and
// reading a request's JSON body under the size cap.
import type { IncomingMessage, ServerResponse } from "node:http";

/** The largest request body read; a bigger one is refused with 413 before it is parsed. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The parsed JSON body, or undefined once an error answer (413, parse error) has been sent. */
export async function readJsonBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      sendRpcError(res, 413, "Request body too large");
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    res.writeHead(400, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null }));
    return undefined;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Writes a web-standard Response (the SDK's bearer challenge) to a Node response. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

export function sendRpcError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { jsonrpc: "2.0", error: { code: -32000, message }, id: null });
}
