// GET /metrics without a token, on a listener of its own (MCP_METRICS_LISTEN): the MCP
// port may be published by a reverse proxy that forwards Host, so it never serves metrics unauthenticated.
// This one binds a loopback address, answers loopback Host names only (a DNS-rebinding page sends its
// own), refuses pages of any origin, and serves /metrics and nothing else.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { answerMetrics, isMetricsRequest } from "../ops/metrics-endpoint.js";
import { allowedHostsOf, hostAllowed, hostForUrl } from "./guards.js";
import { isLoopbackHost } from "./loopback.js";
import { sendJson } from "./replies.js";

export interface ListenAddress {
  host: string;
  port: number;
}

/** MCP_METRICS_LISTEN ("127.0.0.1:9464", "[::1]:9464", "localhost:9464") as an address, or why not. */
export function metricsListenOf(value: string): ListenAddress | string {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(value.trim());
  const host = match?.[1]?.replace(/^\[(.*)\]$/, "$1");
  const port = Number(match?.[2]);
  if (host === undefined || !Number.isInteger(port) || port > 65535) {
    return `MCP_METRICS_LISTEN must be a loopback host:port such as 127.0.0.1:9464, not '${value}'`;
  }
  if (!isLoopbackHost(host)) {
    return `MCP_METRICS_LISTEN must be a loopback address (127.0.0.1, ::1 or localhost), not '${host}': /metrics without a token is for this machine only`;
  }
  return { host, port };
}

/** Serves /metrics alone on `address` (port 0: any free one) until closed. */
export async function serveMetricsListener(
  address: ListenAddress,
): Promise<{ url: string; close(): Promise<void> }> {
  let allowed = new Set<string>();
  const http: Server = createServer((req, res) => {
    if (!hostAllowed(req, allowed) || req.headers.origin !== undefined) {
      sendJson(res, 403, {
        error: "Forbidden: /metrics here answers to loopback Host names, and to no page",
      });
      return;
    }
    if (!isMetricsRequest(req)) {
      sendJson(res, 404, { error: "Not found: this listener serves /metrics only" });
      return;
    }
    answerMetrics(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: "Internal server error" });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(address.port, address.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  allowed = allowedHostsOf(address.host, port);
  return {
    url: `http://${hostForUrl(address.host)}:${port}/metrics`,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
