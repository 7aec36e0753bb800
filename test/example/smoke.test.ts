import { afterAll, beforeAll, expect, it } from "vitest";
import { exampleService } from "../../src/services/example/index.js";
import { type Connected, connectInMemory, textOf } from "../support/clients.js";
import { exampleEnv, startTestExample } from "../support/emulator.js";

let emulator: Awaited<ReturnType<typeof startTestExample>>;
let conn: Connected;
beforeAll(async () => {
  emulator = await startTestExample();
  conn = await connectInMemory(exampleService, exampleEnv(emulator));
});
afterAll(async () => {
  await conn.close();
  await emulator.close();
});

it("smoke", async () => {
  const tools = await conn.client.listTools();
  console.log(JSON.stringify(tools, null, 2));
  const r = await conn.client.callTool({
    name: "example_search_users",
    arguments: { query: " chen ", limit: 3 },
  });
  console.log(textOf(r).text);
  const j = await conn.client.callTool({
    name: "example_search_users",
    arguments: { query: "chen", limit: 2, response_format: "json" },
  });
  console.log(textOf(j).text);
  const bad = await conn.client.callTool({
    name: "example_search_users",
    arguments: { query: " ", limit: 300, foo: 1 },
  });
  console.log(textOf(bad));
  expect(1).toBe(1);
});
