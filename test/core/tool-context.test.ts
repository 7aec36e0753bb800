// What a handler's ToolContext gives it, the same in both protocol eras, through the probe service in
// memory: a 2025-11-25 client (SDK v1, initialize + session) and a 2026-07-28 client (SDK v2, pinned,
// no session). Progress on long calls, logs at the level the client chose (per session in 2025, per
// request in 2026), a resource read by URI.
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectInMemory, connectModernInMemory, textOf } from "../support/clients.js";
import { probeService } from "./probe-service.js";

const REPORT = { name: "probe_report", arguments: { name: "lab book" } };
const LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel";

describe("progress and logs, 2026-07-28", () => {
  it("sends progress to a call that asks for it, and logs at the level the request carries", async () => {
    const connection = await connectModernInMemory(probeService, {});
    const logs: string[] = [];
    connection.client.setNotificationHandler("notifications/message", ({ params }) => {
      logs.push(`${params.level} ${params.logger}: ${JSON.stringify(params.data)}`);
    });
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = textOf(
      await connection.client.callTool(
        { ...REPORT, _meta: { [LOG_LEVEL_KEY]: "info" } },
        {
          onprogress: (update) => progress.push({ progress: update.progress, message: update.message }),
        },
      ),
    );
    expect(result.text).toBe("probe_mcp: Buffer A: 50 mM Tris");
    expect(progress).toEqual([
      { progress: 0.25, message: "started" },
      { progress: 0.5, message: "reading the note" },
      { progress: 1, message: "done" },
    ]);
    expect(logs).toEqual([
      'info probe_mcp: {"message":"an info line","note":"lab book"}',
      'error probe_mcp: "an error line"',
    ]);

    logs.length = 0;
    await connection.client.callTool({ ...REPORT, _meta: { [LOG_LEVEL_KEY]: "debug" } });
    expect(logs.map((line) => line.split(" ")[0])).toEqual(["debug", "info", "error"]);

    // No level in the request: no logs (the 2026 revision), and no progress without a token.
    logs.length = 0;
    progress.length = 0;
    await connection.client.callTool(REPORT);
    expect(logs).toEqual([]);
    expect(progress).toEqual([]);
    await connection.close();
  });
});

describe("progress and logs, 2025-11-25", () => {
  it("keeps the session's level (info until set) and sends progress", async () => {
    const connection = await connectInMemory(probeService, {});
    const logs: string[] = [];
    connection.client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      logs.push(params.level);
    });
    let updates = 0;
    await connection.client.callTool(REPORT, undefined, { onprogress: () => updates++ });
    expect(updates).toBe(3);
    expect(logs).toEqual(["info", "error"]);
    logs.length = 0;
    await connection.client.setLoggingLevel("error");
    await connection.client.callTool(REPORT);
    expect(logs).toEqual(["error"]);
    await connection.close();
  });
});

describe("ToolContext, in-memory 2025-11-25 client", () => {
  it("reports increasing progress with messages, logs by level, and reads a resource by URI", async () => {
    const connection = await connectInMemory(probeService, {});
    const logs: string[] = [];
    connection.client.setNotificationHandler(LoggingMessageNotificationSchema, ({ params }) => {
      logs.push(`${params.level} ${params.logger}: ${JSON.stringify(params.data)}`);
    });
    const progress: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = textOf(
      await connection.client.callTool({ name: "probe_report", arguments: { name: "lab book" } }, undefined, {
        onprogress: (update) => progress.push(update),
      }),
    );
    expect(result.text).toBe("probe_mcp: Buffer A: 50 mM Tris");
    expect(progress).toEqual([
      { progress: 0.25, total: 1, message: "started" },
      { progress: 0.5, total: 1, message: "reading the note" },
      { progress: 1, total: 1, message: "done" },
    ]);
    // info is the level until the client asks for another
    expect(logs).toEqual([
      'info probe_mcp: {"message":"an info line","note":"lab book"}',
      'error probe_mcp: "an error line"',
    ]);

    logs.length = 0;
    await connection.client.setLoggingLevel("debug");
    await connection.client.callTool({ name: "probe_report", arguments: { name: "lab book" } });
    expect(logs.map((line) => line.split(" ")[0])).toEqual(["debug", "info", "error"]);
    await connection.close();
  });

  it("serves the resource to clients under its URI template", async () => {
    const connection = await connectInMemory(probeService, {});
    const { resourceTemplates } = await connection.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: "probe://notes/{name}", name: "note", mimeType: "text/plain" }),
    ]);
    const { contents } = await connection.client.readResource({ uri: "probe://notes/lab%20book" });
    expect(contents).toEqual([
      { uri: "probe://notes/lab%20book", mimeType: "text/plain", text: "Buffer A: 50 mM Tris" },
    ]);
    await connection.close();
  });
});
