// example_mcp: the reference server of the tool-server conventions.
import { z } from "zod";
import type { ServiceDefinition } from "../../core/start/service.js";
import { setting } from "../../core/start/setting.js";
import { ExampleClient } from "./client.js";
import { userSearchResource } from "./resources.js";
import { searchUsers } from "./tools/search-users.js";

const EXAMPLE_SETTINGS = z.object({
  EXAMPLE_BASE_URL: setting.httpsUrl({
    help: "HTTPS base URL of the example service, e.g. https://127.0.0.1:8443/api",
  }),
  EXAMPLE_API_KEY: setting.secret({ help: "API key of the example service, sent as a Bearer token" }),
});

const example = {
  id: "example",
  serverName: "example_mcp",
  version: "0.1.0",
  instructions:
    "Reference MCP server of the lab-mcp conventions: search the users of the example service with example_search_users.",
  settings: EXAMPLE_SETTINGS,
  tools: [searchUsers],
  resources: [userSearchResource],
  createService(values, runtime) {
    return new ExampleClient({
      baseUrl: values.EXAMPLE_BASE_URL,
      apiKey: values.EXAMPLE_API_KEY,
      timeoutMs: runtime.requestTimeoutMs,
      maxResponseBytes: runtime.maxResponseBytes,
    });
  },
} satisfies ServiceDefinition<ExampleClient, typeof EXAMPLE_SETTINGS.shape>;

export const exampleService: ServiceDefinition<ExampleClient, typeof EXAMPLE_SETTINGS.shape> = example;

/** The names of example_mcp's tools as literal types: the keys a table of every tool must have. */
export type ExampleToolName = (typeof example.tools)[number]["name"];
