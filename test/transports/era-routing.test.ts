// The shortcut of transport/era.ts must route every POST exactly as the SDK's isLegacyRequest does:
// it only skips the SDK's first pass where the SDK would say "modern" anyway.
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { isModernPost } from "../../packages/lab-mcp/src/core/transport/era.js";

const CLAIM = "io.modelcontextprotocol/protocolVersion";
const envelope = { [CLAIM]: "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" } };
const call = { name: "probe_report", arguments: {} };

const bodies: Record<string, unknown> = {
  "a modern tools/call": {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { ...call, _meta: envelope },
  },
  "a modern notification": { jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: envelope } },
  "a claim naming a 2025 version": {
    jsonrpc: "2.0",
    id: 2,
    method: "tools/list",
    params: { _meta: { [CLAIM]: "2025-11-25" } },
  },
  "a claim that is not a string": {
    jsonrpc: "2.0",
    id: 3,
    method: "tools/list",
    params: { _meta: { [CLAIM]: 7 } },
  },
  "a claim with an invalid envelope": {
    jsonrpc: "2.0",
    id: 4,
    method: "tools/list",
    params: { _meta: { [CLAIM]: "" } },
  },
  "a claim on a message that is not JSON-RPC": { id: 5, method: "tools/list", params: { _meta: envelope } },
  "initialize with a valid claim": {
    jsonrpc: "2.0",
    id: 6,
    method: "initialize",
    params: {
      protocolVersion: "2026-07-28",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
      _meta: envelope,
    },
  },
  "initialize with a 2025 claim": {
    jsonrpc: "2.0",
    id: 7,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
      _meta: { [CLAIM]: "2025-11-25" },
    },
  },
  "initialize without a claim": {
    jsonrpc: "2.0",
    id: 8,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  },
  "a 2025 tools/call": { jsonrpc: "2.0", id: 9, method: "tools/call", params: call },
  "a 2025 notification": { jsonrpc: "2.0", method: "notifications/initialized" },
  "a posted response carrying a claim": { jsonrpc: "2.0", id: 10, result: {}, params: { _meta: envelope } },
  "a posted error": { jsonrpc: "2.0", id: 11, error: { code: -1, message: "x" } },
  "a batch with a claim": [{ jsonrpc: "2.0", id: 12, method: "tools/list", params: { _meta: envelope } }],
  "a batch without one": [{ jsonrpc: "2.0", id: 13, method: "tools/list" }],
  "params that are an array": { jsonrpc: "2.0", id: 14, method: "tools/list", params: [envelope] },
  "_meta that is an array": { jsonrpc: "2.0", id: 15, method: "tools/list", params: { _meta: [envelope] } },
  "a string": "tools/list",
  null: null,
};

function post(headers: Record<string, string> = {}): Request {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
  });
}

describe("which era a POST without a session belongs to", () => {
  for (const [name, body] of Object.entries(bodies)) {
    it(`routes ${name} as the SDK does`, async () => {
      expect(await isModernPost(post(), body)).toBe(!(await isLegacyRequest(post(), body)));
    });
  }

  it("agrees with the SDK when the headers name the other era", async () => {
    const modern = bodies["a modern tools/call"];
    const legacy = bodies["a 2025 tools/call"];
    for (const headers of [
      { "mcp-protocol-version": "2025-11-25" },
      { "mcp-protocol-version": "2026-07-28" },
    ]) {
      expect(await isModernPost(post(headers), modern)).toBe(!(await isLegacyRequest(post(headers), modern)));
      expect(await isModernPost(post(headers), legacy)).toBe(!(await isLegacyRequest(post(headers), legacy)));
    }
  });
});
