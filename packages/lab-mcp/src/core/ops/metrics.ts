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
import { ConnectionError, type ErrorKind, RemoteTimeoutError } from "../errors.js";
import type { CallOutcome, MetricsRecorder, WaitReason } from "./metrics-registry.js";

export const METRICS_PREFIX = "labmcp_";

export type { CallOutcome, WaitReason };

/** The labels of the call a remote request serves. */
export interface CallLabels {
  /** The ServiceDefinition id, e.g. "labdata". */
  service: string;
  /** The tool's name, or `resource:<name>` for a resource read. */
  tool: string;
}

/** A remote request made outside any tool call (none is, today, in a serving process). */
const OUTSIDE_CALLS: CallLabels = { service: "none", tool: "none" };

/**
 * The Prometheus registry, loaded on first need (prom-client and its default metrics weigh megabytes):
 * serveHttp starts it with the server, the first scrape otherwise. Over stdio nobody can scrape, so
 * nothing is counted and nothing is loaded.
 */
let recorder: MetricsRecorder | undefined;
let loading: Promise<MetricsRecorder> | undefined;

/** Loads the registry and counts from now on; the same promise for every caller. */
export function startMetrics(): Promise<MetricsRecorder> {
  loading ??= import("./metrics-registry.js").then(({ createMetricsRecorder }) => {
    recorder = createMetricsRecorder(METRICS_PREFIX);
    return recorder;
  });
  return loading;
}

const currentCall = new AsyncLocalStorage<CallLabels>();

/** Runs `work` as part of the call `labels` names: the remote requests it makes count for that call. */
export function withCallLabels<T>(labels: CallLabels, work: () => Promise<T>): Promise<T> {
  // Labels are read only where something is counted. Without the registry (stdio) the call runs bare:
  // an AsyncLocalStorage in use turns on Node's promise hooks, a cost on every await of the process.
  if (loading === undefined) return work();
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
  recorder?.toolCall(call);
}

/** The remote answered with this status (a 429 is also counted as such); passes the response on. */
export function countRemoteAnswer<R extends { status: number }>(response: R): R {
  recorder?.remoteAnswer(callLabels(), response.status);
  return response;
}

/**
 * Sending failed: counted as "network" when the remote gave no answer (the connection failed or timed
 * out), not when the caller cancelled. Re-throws `error`.
 */
export function countRemoteFailure(error: unknown): never {
  if (error instanceof ConnectionError || error instanceof RemoteTimeoutError) {
    recorder?.remoteAnswer(callLabels(), "network");
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
    if (waited) recorder?.wait(callLabels(), reason, (performance.now() - started) / 1000);
  }
}

/** The whole registry in Prometheus text format, and the content type to serve it with. */
export async function metricsText(): Promise<{ contentType: string; text: string }> {
  return (await startMetrics()).text();
}
