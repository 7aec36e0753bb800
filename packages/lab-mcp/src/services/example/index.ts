// example_mcp: the reference server of the tool-server conventions.
import type { ServiceDefinition } from "../../core/server.js";
import { ExampleApi } from "./client.js";
import { userSearchResource } from "./resources.js";
import { searchUsers } from "./tools/search-users.js";

export const exampleService: ServiceDefinition<ExampleApi> = {
  id: "example",
  serverName: "example_mcp",
  version: "0.1.0",
  instructions:
    "Reference MCP server of the lab-mcp conventions: search the users of the example service with example_search_users.",
  settings: [
    {
      env: "EXAMPLE_BASE_URL",
      kind: "https-url",
      required: true,
      description: "HTTPS base URL of the example service, e.g. https://127.0.0.1:8443/api",
    },
    {
      env: "EXAMPLE_API_KEY",
      kind: "secret",
      required: true,
      description: "API key of the example service, sent as a Bearer token",
    },
  ],
  tools: [searchUsers],
  resources: [userSearchResource],
  createService(values, core) {
    return new ExampleApi({
      baseUrl: values.EXAMPLE_BASE_URL as string,
      apiKey: values.EXAMPLE_API_KEY as string,
      timeoutMs: core.requestTimeoutMs,
      maxResponseBytes: core.maxResponseBytes,
    });
  },
};
