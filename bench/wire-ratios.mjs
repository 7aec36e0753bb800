// Every tool's markdown answer on the wire against its text: the sample calls
// (test/support/sample-calls.mjs) in order, one row per tool. A listed tool without a sample call gets a row saying so, so that a new
// tool cannot slip past the goal unmeasured. Not a benchmark itself.
import { textOf, wireBytes } from "./lib.mjs";

/** The goal of issue 26: a markdown answer's wire bytes at most 3x its text. */
export const WIRE_GOAL = 3;

/** A row of the table: server, tool, text bytes, wire bytes, ratio (flagged over the goal). */
export function ratioRow(server, tool, result) {
  const text = Buffer.byteLength(textOf(result, true));
  const wire = wireBytes(result);
  const ratio = wire / text;
  return [server, tool, text, wire, `${ratio.toFixed(2)}x${ratio <= WIRE_GOAL ? "" : " (over 3x)"}`];
}

/**
 * Calls `calls` (sampleCalls of test/support/sample-calls.mjs) on `client` in order and measures each;
 * `done` holds rows measured elsewhere (the sign-in, which a played browser finishes).
 */
export async function everyToolRatios(server, client, calls, done = []) {
  const listed = (await client.listTools()).tools.map((tool) => tool.name);
  const rows = [...done];
  for (const call of calls) {
    if (call.signsIn || rows.some((row) => row[1] === call.name)) continue;
    if (!listed.includes(call.name)) {
      rows.push([server, call.name, "-", "-", "not listed"]);
      continue;
    }
    const result = await client.callTool({ name: call.name, arguments: call.arguments() });
    if (result.isError) throw new Error(`${call.name}: ${textOf(result, true)}`);
    call.keep(result);
    rows.push(ratioRow(server, call.name, result));
  }
  for (const name of listed.filter((name) => !rows.some((row) => row[1] === name)))
    rows.push([server, name, "-", "-", "no sample call"]);
  return rows.sort((a, b) => a[1].localeCompare(b[1]));
}
