// The conventions fix the remote timeout at 30 seconds: this waits it out once, for real.
import { expect, it } from "vitest";
import { exampleService } from "../../packages/lab-mcp/src/services/example/index.js";
import { textOf, useInMemoryClient } from "../support/clients.js";
import { exampleEnv, useExampleEmulator } from "../support/emulator.js";

const emulator = useExampleEmulator();
const conn = useInMemoryClient(exampleService, () => exampleEnv(emulator));

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
