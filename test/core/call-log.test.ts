// The call log's lines go out after the call's answer: the lines of one turn of the event loop in one
// write to stderr, none of them before the turn ends.
import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { toolCallLine, writeToolCallLine } from "../../packages/lab-mcp/src/core/ops/call-log.js";

describe("the call log", () => {
  it("writes a turn's lines once the turn is over, in one write", async () => {
    const writes: string[] = [];
    const original = process.stderr.write;
    process.stderr.write = ((chunk: string | Uint8Array) => {
      writes.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const line = (tool: string) =>
        toolCallLine({ server: "example_mcp", tool, durationMs: 1.4, outcome: "ok" as const });
      writeToolCallLine(line("example_search_users"));
      writeToolCallLine(line("example_other"));
      expect(writes).toEqual([]);
      await nextTurn();
      expect(writes).toHaveLength(1);
      const lines = (writes[0] ?? "")
        .trimEnd()
        .split("\n")
        .map((text) => JSON.parse(text));
      expect(lines.map((entry) => entry.tool)).toEqual(["example_search_users", "example_other"]);
      expect(lines[0]).toMatchObject({ event: "tool_call", duration_ms: 1, outcome: "ok" });
    } finally {
      process.stderr.write = original;
    }
  });
});
