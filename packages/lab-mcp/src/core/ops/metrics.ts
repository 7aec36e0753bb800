// The operator's numbers, in Prometheus text format (GET /metrics): tool calls, their errors by kind
// and durations, remote requests by status class, 429s and rate waits. One Registry for the process
// (not prom-client's global one, which a library we load could also fill).
//
// Labels hold only names declared in code and closed sets: the service id, the tool name, an error
// kind, a status class. Never an id, a query, a URL, a name, an email or a credential: what a caller
// sends never becomes a label.
//
// Remote requests are counted against the tool call they serve: server.ts runs each call inside
// `withCallLabels`, and the remote client, which knows nothing of tools, reads the labels from there
// (AsyncLocalStorage follows the call through every await, token renewals and rate waits included).
import { AsyncLocalStorage } from "node:async_hooks";
import { performance } from "node:perf_hooks";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { ConnectionError, type ErrorKind, RemoteTimeoutError } from "../errors.js";

export const METRICS_PREFIX = "labmcp_";

/** What a tool call came to: an answer, an error text, or a page the user must open first. */
export type CallOutcome = "ok" | "error" | "input_required";

/** Why a call waited before a remote request: its credential's rate budget, or a 429's back-off. */
export type WaitReason = "budget" | "retry_after";

/** The labels of the call a remote request serves. */
export interface CallLabels {
  /** The ServiceDefinition id, e.g. "labdata". */
  service: string;
  /** The tool's name, or `resource:<name>` for a resource read. */
  tool: string;
}

/** A remote request made outside any tool call (none is, today, in a serving process). */
const OUTSIDE_CALLS: CallLabels = { service: "none", tool: "none" };

const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: METRICS_PREFIX });

const toolCalls = new Counter({
  name: `${METRICS_PREFIX}tool_calls_total`,
  help: "Tool calls answered, by server, tool and outcome (ok, error, input_required).",
  labelNames: ["server", "tool", "outcome"] as const,
  registers: [registry],
});
const toolErrors = new Counter({
  name: `${METRICS_PREFIX}tool_errors_total`,
  help: "Tool calls answered with an error text, by server, tool and the kind of the text.",
  labelNames: ["server", "tool", "error"] as const,
  registers: [registry],
});
const toolDuration = new Histogram({
  name: `${METRICS_PREFIX}tool_call_duration_seconds`,
  help: "How long tool calls took, from the request to the answer, by server and tool.",
  labelNames: ["server", "tool"] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [registry],
});
const remoteRequests = new Counter({
  name: `${METRICS_PREFIX}remote_requests_total`,
  help: "Requests to the remote service, by service, tool and status class (2xx, 3xx, 4xx, 5xx, or network when no answer came).",
  labelNames: ["service", "tool", "status_class"] as const,
  registers: [registry],
});
const remoteRateLimited = new Counter({
  name: `${METRICS_PREFIX}remote_rate_limited_total`,
  help: "Answers 429 (rate limit exceeded) received from the remote service, by service and tool.",
  labelNames: ["service", "tool"] as const,
  registers: [registry],
});
const rateWaits = new Counter({
  name: `${METRICS_PREFIX}rate_waits_total`,
  help: "Times a remote request waited before it was sent: for its credential's rate budget (budget) or after a 429 (retry_after).",
  labelNames: ["service", "tool", "reason"] as const,
  registers: [registry],
});
const rateWaitSeconds = new Counter({
  name: `${METRICS_PREFIX}rate_wait_seconds_total`,
  help: "Seconds remote requests waited before they were sent, by service, tool and reason (budget, retry_after).",
  labelNames: ["service", "tool", "reason"] as const,
  registers: [registry],
});

const currentCall = new AsyncLocalStorage<CallLabels>();

/** Runs `work` as part of the call `labels` names: the remote requests it makes count for that call. */
export function withCallLabels<T>(labels: CallLabels, work: () => Promise<T>): Promise<T> {
  return currentCall.run(labels, work);
}

function callLabels(): CallLabels {
  return currentCall.getStore() ?? OUTSIDE_CALLS;
}

/** One tool call answered. */
export function countToolCall(call: {
  server: string;
  tool: string;
  outcome: CallOutcome;
  error?: ErrorKind;
  durationMs: number;
}): void {
  const { server, tool } = call;
  toolCalls.inc({ server, tool, outcome: call.outcome });
  if (call.error) toolErrors.inc({ server, tool, error: call.error });
  toolDuration.observe({ server, tool }, call.durationMs / 1000);
}

/** The remote answered with this status (a 429 is also counted as such); passes the response on. */
export function countRemoteAnswer<R extends { status: number }>(response: R): R {
  const { service, tool } = callLabels();
  remoteRequests.inc({ service, tool, status_class: statusClass(response.status) });
  if (response.status === 429) remoteRateLimited.inc({ service, tool });
  return response;
}

/**
 * Sending failed: counted as "network" when the remote gave no answer (the connection failed or timed
 * out), not when the caller cancelled. Re-throws `error`.
 */
export function countRemoteFailure(error: unknown): never {
  if (error instanceof ConnectionError || error instanceof RemoteTimeoutError) {
    const { service, tool } = callLabels();
    remoteRequests.inc({ service, tool, status_class: "network" });
  }
  throw error;
}

/**
 * Runs a wait and counts it, with the time it really took (even when cancelled). `wait` is handed a
 * function to call when it turns out to wait at all; a rate budget with a free slot does not.
 */
export async function countWait<T>(
  reason: WaitReason,
  wait: (waiting: () => void) => Promise<T>,
): Promise<T> {
  const started = performance.now();
  let waited = false;
  try {
    return await wait(() => {
      waited = true;
    });
  } finally {
    if (waited) {
      const { service, tool } = callLabels();
      rateWaits.inc({ service, tool, reason });
      rateWaitSeconds.inc({ service, tool, reason }, (performance.now() - started) / 1000);
    }
  }
}

function statusClass(status: number): string {
  if (status >= 200 && status < 600) return `${Math.floor(status / 100)}xx`;
  return "other";
}

/** The whole registry in Prometheus text format, and the content type to serve it with. */
export async function metricsText(): Promise<{ contentType: string; text: string }> {
  return { contentType: registry.contentType, text: await registry.metrics() };
}
