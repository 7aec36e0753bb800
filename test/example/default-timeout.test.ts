// The conventions fix the remote timeout at 30 seconds: this waits it out once, for real.
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ExampleEmulator } from "../../packages/emulators/src/example/index.js";
import { exampleService } from "../../packages/lab-mcp/src/services/example/index.js";
import { type Connected, connectInMemory, textOf } from "../support/clients.js";
import { exampleEnv, startTestExample } from "../support/emulator.js";

let emulator: ExampleEmulator;
let conn: Connected;
beforeAll(async () => {
  emulator = await startTestExample();
  conn = await connectInMemory(exampleService, exampleEnv(emulator));
});
afterAll(async () => {
  await conn.close();
  await emulator.close();
});

it("gives up on a remote that has not answered after 30 s, and not before", { timeout: 60_000 }, async () => {
  emulator.faults.inject({ kind: "delay", ms: 45_000 }, { path: "/api/users/search" });
  const started = Date.now();
  const result = textOf(
    await conn.client.callTool({ name: "example_search_users", arguments: { query: "chen" } }),
  );
  const waited = Date.now() - started;
  expect(result).toEqual({ text: "Error: Request timed out. Please try again.", isError: true });
  expect(waited).toBeGreaterThanOrEqual(30_000);
  expect(waited).toBeLessThan(40_000);
});
