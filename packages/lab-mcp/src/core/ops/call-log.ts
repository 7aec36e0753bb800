// One JSON line on stderr per tool call (MCP_LOG_CALLS), for the operator's log pipeline: when, who
// (a keyed hash, never the identity), which tool, how long, and how it ended. Never the arguments nor
// the answer: either may hold a secret or a person's data.
import { createHmac } from "node:crypto";
import type { ClientSession } from "../caller.js";
import type { ErrorKind } from "../errors.js";
import type { CallOutcome } from "./metrics.js";

export interface ToolCallLine {
  time: string;
  level: "info";
  event: "tool_call";
  server: string;
  tool: string;
  duration_ms: number;
  outcome: CallOutcome;
  error?: ErrorKind;
  /** The caller's keyed hash; absent when nobody is identified (stdio, an anonymous request). */
  subject?: string;
}

/** Hex characters of the subject hash kept: enough to tell callers apart, too few to be worth more. */
const SUBJECT_HEX = 16;

/**
 * The caller as the log names it: an HMAC-SHA256 of its identity under `key`, cut short. The key keeps
 * a guessable identity (an email, a subject) from being found by hashing candidates; the same key on
 * every replica (derived from MCP_STATE_KEY) names one caller alike across the fleet.
 */
export function subjectHash(caller: ClientSession, key: Buffer): string | undefined {
  if (!caller.isolated || caller.thisCallOnly) return undefined;
  return createHmac("sha256", key).update(caller.caller).digest("hex").slice(0, SUBJECT_HEX);
}

export function toolCallLine(call: {
  server: string;
  tool: string;
  durationMs: number;
  outcome: CallOutcome;
  error?: ErrorKind;
  subject?: string;
}): ToolCallLine {
  return {
    time: new Date().toISOString(),
    level: "info",
    event: "tool_call",
    server: call.server,
    tool: call.tool,
    duration_ms: Math.round(call.durationMs),
    outcome: call.outcome,
    ...(call.error ? { error: call.error } : {}),
    ...(call.subject ? { subject: call.subject } : {}),
  };
}

let pending: string[] = [];

/**
 * Writes the line to stderr (over stdio, stdout carries JSON-RPC alone) once the call's answer is out:
 * a write to a pipe wakes its reader, and the caller waiting for the answer should not wait for that.
 * The lines of one turn of the event loop go in one write; a process that exits writes what is left.
 */
export function writeToolCallLine(line: ToolCallLine): void {
  if (pending.length === 0) setImmediate(flushToolCallLines);
  pending.push(`${JSON.stringify(line)}\n`);
}

function flushToolCallLines(): void {
  if (pending.length === 0) return;
  const text = pending.join("");
  pending = [];
  process.stderr.write(text);
}

process.on("exit", flushToolCallLines);
