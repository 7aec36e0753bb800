// Fault injection shared by all emulators: lets tests make the next N requests to a path fail in the
// ways real networks and services fail, so client retry, timeout and error handling can be proven.
import type { IncomingMessage, ServerResponse } from "node:http";
import { writeResponse } from "./response.js";

export type Fault =
  | { kind: "delay"; ms: number }
  | { kind: "status"; status: number; body?: string; headers?: Record<string, string> }
  | { kind: "drop" }
  | { kind: "malformed" }
  | { kind: "truncated" };

interface PlannedFault {
  fault: Fault;
  pathPrefix: string;
  remaining: number;
}

export class FaultPlan {
  #planned: PlannedFault[] = [];

  /** Applies `fault` to the next `times` (default 1) requests whose path starts with `path` (default "/"). */
  inject(fault: Fault, opts: { path?: string; times?: number } = {}): void {
    const times = opts.times ?? 1;
    if (!Number.isInteger(times) || times < 1) throw new RangeError("times must be a positive integer");
    this.#planned.push({ fault, pathPrefix: opts.path ?? "/", remaining: times });
  }

  /** The fault for a request to `path` (a pathname, no query), counting it as used; first injected wins. */
  take(path: string): Fault | undefined {
    const index = this.#planned.findIndex((p) => path.startsWith(p.pathPrefix));
    const planned = this.#planned[index];
    if (!planned) return undefined;
    planned.remaining -= 1;
    if (planned.remaining === 0) this.#planned.splice(index, 1);
    return planned.fault;
  }

  clear(): void {
    this.#planned = [];
  }
}

const MALFORMED_BODY = '{"users": [{"id": "usr_0001", "name": <html>Bad gateway</html>';
const TRUNCATED_BODY = '{"users": [{"id": "usr_0001", "name": "Ada';

function defaultStatusBody(status: number): string {
  return JSON.stringify({ error: "injected_fault", message: `Injected fault: status ${status}` });
}

function looksLikeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

// Resolves true after `ms`, or false as soon as the connection goes away, so a pending delay never
// holds the process open after the server closes its sockets.
function waitUnlessClosed(ms: number, res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve(false);
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      res.off("close", onClose);
      resolve(true);
    }, ms);
    res.once("close", onClose);
  });
}

/** Performs `fault` on the exchange; "continue" means the request should now be served normally. */
export async function applyFault(
  fault: Fault,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<"handled" | "continue"> {
  switch (fault.kind) {
    case "delay":
      return (await waitUnlessClosed(fault.ms, res)) ? "continue" : "handled";
    case "status": {
      const body = fault.body ?? defaultStatusBody(fault.status);
      const contentType = looksLikeJson(body) ? "application/json" : "text/plain; charset=utf-8";
      writeResponse(res, {
        status: fault.status,
        headers: { "content-type": contentType, ...fault.headers },
        body: { kind: "raw", text: body },
      });
      return "handled";
    }
    case "drop":
      req.socket.destroy();
      return "handled";
    case "malformed":
      writeResponse(res, {
        status: 200,
        headers: { "content-type": "application/json" },
        body: { kind: "raw", text: MALFORMED_BODY },
      });
      return "handled";
    case "truncated": {
      const sent = Buffer.from(TRUNCATED_BODY);
      res.writeHead(200, { "content-type": "application/json", "content-length": String(sent.length * 4) });
      // Destroy only once the partial body is flushed, so the client sees headers and some bytes first.
      res.write(sent, () => setImmediate(() => req.socket.destroy()));
      return "handled";
    }
  }
}
