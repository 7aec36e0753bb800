// Every tool server of the package, with settings enough to start it (listing tools calls no remote).
import type { ServiceDefinition } from "../../packages/lab-mcp/src/core/start/service.js";
import { exampleService } from "../../packages/lab-mcp/src/services/example/index.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";

export const ALL_SERVICES: Array<{ definition: ServiceDefinition<unknown>; env: Record<string, string> }> = [
  {
    definition: exampleService as ServiceDefinition<unknown>,
    env: { EXAMPLE_BASE_URL: "https://127.0.0.1:1/api", EXAMPLE_API_KEY: "unused" },
  },
  {
    definition: labdataService as ServiceDefinition<unknown>,
    // Every toolset, destructive tools allowed (archiving): the server offers every tool it has.
    env: {
      MCP_TOOLSETS: "all",
      LABDATA_BASE_URL: "https://127.0.0.1:1/acme",
      LABDATA_API_KEY: "unused",
      MCP_ALLOW_DESTRUCTIVE: "true",
    },
  },
  {
    definition: protocolsService as ServiceDefinition<unknown>,
    // An OAuth application, destructive tools allowed: the server offers every tool it has.
    env: {
      MCP_TOOLSETS: "all",
      PROTOCOLS_BASE_URL: "https://127.0.0.1:1",
      PROTOCOLS_CLIENT_ID: "unused",
      PROTOCOLS_CLIENT_SECRET: "unused",
      PROTOCOLS_REDIRECT_URI: "http://127.0.0.1:38211/callback",
      MCP_ALLOW_DESTRUCTIVE: "true",
    },
  },
];
