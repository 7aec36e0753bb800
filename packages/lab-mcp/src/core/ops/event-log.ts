// One JSON object a line on stderr for what a request caused (a refused MCP request, a failed HTTP
// exchange), like the call log's lines: text that came with the request (a method name, a malformed
// body's excerpt) is a JSON string in it, escaped, so no caller can end the line and forge another.

export interface EventLine {
  time: string;
  level: "warn";
  event: "mcp_request_refused" | "http_request_failed";
  /** What went wrong, possibly holding text from the request: only ever written JSON-escaped. */
  message: string;
}

/** Writes one event line on stderr. */
export function writeEventLine(event: EventLine["event"], message: string): void {
  const line: EventLine = { time: new Date().toISOString(), level: "warn", event, message };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}
