// The Prometheus side of ops/metrics.ts: prom-client, its registry and the counters, loaded only when
// something can read them (an HTTP server's /metrics, a scrape in a test). Imports nothing of ours but
// types, so metrics.ts can load it with import() and stay light on the hot path.
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import type { ErrorKind } from "../errors.js";

/** What a tool call came to: an answer, an error text, or a page the user must open first. */
export type CallOutcome = "ok" | "error" | "input_required";

/** Why a call waited before a remote request: its credential's rate budget, or a 429's back-off. */
export type WaitReason = "budget" | "retry_after";

interface Labels {
  service: string;
  tool: string;
}

/** What metrics.ts hands over: each event once, already labelled. */
export interface MetricsRecorder {
  toolCall(call: {
    server: string;
    tool: string;
    outcome: CallOutcome;
    error?: ErrorKind;
    durationMs: number;
  }): void;
  /** An HTTP status of the remote, or "network" when no answer came. */
  remoteAnswer(labels: Labels, status: number | "network"): void;
  wait(labels: Labels, reason: WaitReason, seconds: number): void;
  text(): Promise<{ contentType: string; text: string }>;
}

/** One Registry for the process (not prom-client's global one, which a library we load could also fill). */
export function createMetricsRecorder(prefix: string): MetricsRecorder {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix });

  const toolCalls = new Counter({
    name: `${prefix}tool_calls_total`,
    help: "Tool calls answered, by server, tool and outcome (ok, error, input_required).",
    labelNames: ["server", "tool", "outcome"] as const,
    registers: [registry],
  });
  const toolErrors = new Counter({
    name: `${prefix}tool_errors_total`,
    help: "Tool calls answered with an error text, by server, tool and the kind of the text.",
    labelNames: ["server", "tool", "error"] as const,
    registers: [registry],
  });
  const toolDuration = new Histogram({
    name: `${prefix}tool_call_duration_seconds`,
    help: "How long tool calls took, from the request to the answer, by server and tool.",
    labelNames: ["server", "tool"] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [registry],
  });
  const remoteRequests = new Counter({
    name: `${prefix}remote_requests_total`,
    help: "Requests to the remote service, by service, tool and status class (2xx, 3xx, 4xx, 5xx, or network when no answer came).",
    labelNames: ["service", "tool", "status_class"] as const,
    registers: [registry],
  });
  const remoteRateLimited = new Counter({
    name: `${prefix}remote_rate_limited_total`,
    help: "Answers 429 (rate limit exceeded) received from the remote service, by service and tool.",
    labelNames: ["service", "tool"] as const,
    registers: [registry],
  });
  const rateWaits = new Counter({
    name: `${prefix}rate_waits_total`,
    help: "Times a remote request waited before it was sent: for its credential's rate budget (budget) or after a 429 (retry_after).",
    labelNames: ["service", "tool", "reason"] as const,
    registers: [registry],
  });
  const rateWaitSeconds = new Counter({
    name: `${prefix}rate_wait_seconds_total`,
    help: "Seconds remote requests waited before they were sent, by service, tool and reason (budget, retry_after).",
    labelNames: ["service", "tool", "reason"] as const,
    registers: [registry],
  });

  return {
    toolCall({ server, tool, outcome, error, durationMs }) {
      toolCalls.inc({ server, tool, outcome });
      if (error) toolErrors.inc({ server, tool, error });
      toolDuration.observe({ server, tool }, durationMs / 1000);
    },
    remoteAnswer({ service, tool }, status) {
      remoteRequests.inc({ service, tool, status_class: statusClass(status) });
      if (status === 429) remoteRateLimited.inc({ service, tool });
    },
    wait({ service, tool }, reason, seconds) {
      rateWaits.inc({ service, tool, reason });
      rateWaitSeconds.inc({ service, tool, reason }, seconds);
    },
    text: async () => ({ contentType: registry.contentType, text: await registry.metrics() }),
  };
}

function statusClass(status: number | "network"): string {
  if (status === "network") return status;
  if (status >= 200 && status < 600) return `${Math.floor(status / 100)}xx`;
  return "other";
}
