// What an emulator was asked, so tests can assert how many remote calls a tool made and with what
// parameters. Credentials are redacted so a log dump can never leak them.
import type { IncomingMessage } from "node:http";

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  at: Date;
}

const REDACTED_HEADERS = new Set(["authorization", "proxy-authorization", "cookie"]);

export class RequestLog {
  #entries: LoggedRequest[] = [];

  record(req: IncomingMessage, url: URL): LoggedRequest {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      headers[name] = REDACTED_HEADERS.has(name)
        ? "REDACTED"
        : Array.isArray(value)
          ? value.join(", ")
          : value;
    }
    const entry: LoggedRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      at: new Date(),
    };
    this.#entries.push(entry);
    return entry;
  }

  count(pathPrefix?: string): number {
    if (pathPrefix === undefined) return this.#entries.length;
    return this.#entries.filter((e) => e.path.startsWith(pathPrefix)).length;
  }

  entries(): LoggedRequest[] {
    return this.#entries.map((e) => ({ ...e, query: { ...e.query }, headers: { ...e.headers } }));
  }

  clear(): void {
    this.#entries = [];
  }
}
