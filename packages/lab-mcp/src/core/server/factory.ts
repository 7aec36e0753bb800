// ServedService -> McpServer: registers the tools and resources of one service, applies read-only
// mode and toolsets, and runs every call through the same validation and error boundary. One factory
// serves both protocol eras (2025-11-25 and 2026-07-28) on every transport; what every instance
// shares is built here once per process.
import { randomBytes } from "node:crypto";
import { createRequestStateCodec, type McpServer, type Tool } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { ClientSession } from "../caller.js";
import { subjectHash, toolCallLine, writeToolCallLine } from "../ops/call-log.js";
import { countToolCall } from "../ops/metrics.js";
import { PendingAsks } from "../pages/pending-asks.js";
import type { AskState } from "../pages/url-ask.js";
import type { AnyResource } from "../resource.js";
import { type AnyTool, assertValidTool } from "../tool.js";
import { inputSchemaOf } from "../validate.js";
import { viewMeta, viewResource } from "../view.js";
import { buildServer, type CallRecorder } from "./build-server.js";
import { compactSchema } from "./compact-schema.js";
import type { ServedService, ServerOptions } from "./options.js";
import { enabledResources, enabledTools } from "./toolsets.js";

/** Builds the McpServer instances of one service: one per connection, session or stateless request. */
export type ServerFactory = (clientSession: ClientSession) => McpServer;

/**
 * What every instance shares is built once per process: the tool list as agents see it, the pages
 * opened for users across the rounds of a request, and the key that signs requestState.
 */
export function createServerFactory<S>(
  definition: ServedService<S>,
  service: S,
  options: ServerOptions,
): ServerFactory {
  for (const tool of definition.tools) assertValidTool(definition.id, tool);
  // One order, by name, whatever order the tools were declared or registered in: agents and
  // their prompt caches see a byte-identical tools/list from every process, in both eras.
  const tools = enabledTools(definition, options, service).sort((a, b) => compareNames(a.name, b.name));
  const listedTools: Tool[] = tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: compactSchema(
      z.toJSONSchema(inputSchemaOf(tool.input), { io: "input" }),
      "input",
    ) as Tool["inputSchema"],
    outputSchema: outputSchemaOf(tool.output),
    annotations: { title: tool.title, ...tool.annotations },
    ...(tool.view ? { _meta: viewMeta(tool.view) } : {}),
  }));
  // The state only names a page of this process for a caller; a fresh key per process is enough.
  const codec = createRequestStateCodec<AskState>({
    key: options.requestStateKey ?? randomBytes(32),
    ttlSeconds: 15 * 60,
  });
  const parts = {
    // Resources follow their toolsets: a toolset left out lists and reads none of its resources.
    // A view is served where a tool offered links to it.
    definition: { ...definition, resources: [...enabledResources(definition, options), ...viewsOf(tools)] },
    service,
    options,
    tools,
    listedTools,
    pending: new PendingAsks(),
    codec,
    recordCall: callRecorder(definition.serverName, options),
  };
  return (clientSession) => buildServer(parts, clientSession);
}

/** One instance for a single client (stdio, or a test's in-memory link). */
export function createMcpServer<S>(
  definition: ServedService<S>,
  service: S,
  options: ServerOptions,
): McpServer {
  return createServerFactory(
    definition,
    service,
    options,
  )({
    caller: "local",
    isolated: options.isolateClients === true,
  });
}

/** Every call counted in the metrics, and with MCP_LOG_CALLS one line on stderr. */
function callRecorder(server: string, options: ServerOptions): CallRecorder {
  const subjectKey = options.logSubjectKey ?? randomBytes(32);
  return (clientSession, call) => {
    countToolCall({ server, ...call });
    if (!options.logCalls) return;
    writeToolCallLine(toolCallLine({ server, ...call, subject: subjectHash(clientSession, subjectKey) }));
  };
}

/** The views the offered tools link to, each once, as resources. */
function viewsOf<S>(tools: AnyTool<S>[]): AnyResource<S>[] {
  const views = new Map(tools.flatMap((tool) => (tool.view ? [[tool.view.uri, tool.view] as const] : [])));
  return [...views.values()].map((view) => viewResource(view) as AnyResource<S>);
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The JSON Schema of a tool's structured content, as the records are after lenient parsing. Fields
 * are open (records keep unknown remote fields for the json format) and what zod cannot express in
 * JSON Schema (a lenient list's transform) reads as any value.
 */
function outputSchemaOf(shape: z.ZodRawShape): Tool["outputSchema"] {
  return compactSchema(
    z.toJSONSchema(z.looseObject(shape), { io: "output", unrepresentable: "any" }),
    "output",
  ) as Tool["outputSchema"];
}
