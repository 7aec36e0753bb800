// What a caller sends cannot write the operator's log: text of a refused request (here a method name
// and a protocol version with a line break and a forged call-log line in them) is escaped inside one
// JSON object a line, never a line of its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServerProcess, MODERN_PROTOCOL, startHttpBin } from "../support/clients.js";

const FORGED = JSON.stringify({ event: "tool_call", tool: "labdata_forged", outcome: "ok" });

describe("the log lines of an HTTP server", () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startHttpBin("labdata-mcp", {
      LABDATA_BASE_URL: "https://127.0.0.1:9",
      LABDATA_API_KEY: "not-used-here",
      MCP_LOG_CALLS: "1",
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("are one JSON object each, whatever a refused request carried", async () => {
    const envelope = (version: string) => ({
      "io.modelcontextprotocol/protocolVersion": version,
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "caller", version: "1" },
    });
    const bodies = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: `tools/call\n${FORGED}`,
        params: { _meta: envelope(MODERN_PROTOCOL) },
      },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/list",
        params: { _meta: envelope(`${MODERN_PROTOCOL}\n${FORGED}`) },
      },
    ];
    for (const body of bodies) {
      const response = await fetch(server.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": MODERN_PROTOCOL,
        },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(400);
      await response.body?.cancel();
    }
    await expect
      .poll(
        () =>
          server
            .stderr()
            .split("\n")
            .filter((line) => line.includes("mcp_request_refused")).length,
      )
      .toBe(2);
    const [listening, ...lines] = server.stderr().trimEnd().split("\n");
    expect(listening).toMatch(/^labdata_mcp listening on /);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.every((entry) => entry.event === "mcp_request_refused")).toBe(true);
    expect(entries.some((entry) => String(entry.message).includes(FORGED))).toBe(true);
  });
});
