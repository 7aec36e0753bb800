// GET /metrics: the process's metrics (metrics.ts) in Prometheus text format, for a scraper. Who may
// read them is the transport's decision (a bearer token, or loopback only); this answers the request.
import type { IncomingMessage, ServerResponse } from "node:http";
import { metricsText } from "./metrics.js";

export const METRICS_PATH = "/metrics";

/** Whether the request is for /metrics, whatever its method. */
export function isMetricsRequest(req: IncomingMessage): boolean {
  return new URL(req.url ?? "/", "http://localhost").pathname === METRICS_PATH;
}

/** Answers GET or HEAD with the metrics, never cached. */
export async function answerMetrics(req: IncomingMessage, res: ServerResponse): Promise<void> {
  res.setHeader("cache-control", "no-store");
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.setHeader("allow", "GET, HEAD");
    res.writeHead(405, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "Method not allowed" }));
    return;
  }
  const { contentType, text } = await metricsText();
  res.writeHead(200, { "content-type": contentType });
  res.end(req.method === "HEAD" ? undefined : text);
}
