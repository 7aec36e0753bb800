// ServiceDefinition -> McpServer: registers the tools and resources of one service, applies
// read-only mode and toolsets, and runs every call through the same validation and error boundary.
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type ServerNotification,
  type ServerRequest,
  SetLevelRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { CoreValues } from "./config.js";
import { type ClientSession, createToolContext, LogLevelState, type ToolContext } from "./context.js";
import { errorText, InvalidInputError, RemoteStatusError } from "./errors.js";
import { type AnyResource, matchResource } from "./resource.js";
import type { CoreSettings } from "./run.js";
import type { SettingsObject, SettingsShape, ValuesOf } from "./setting.js";
import { type AnyTool, assertValidTool } from "./tool.js";
import { inputSchemaOf, validateInput } from "./validate.js";

/** What a server's handlers and checks read: the core MCP_* values and the service's own, typed. */
export type ServerValues<Shape extends SettingsShape> = CoreValues & ValuesOf<Shape>;

export interface ServiceDefinition<Service, Shape extends SettingsShape = SettingsShape> {
  /** Prefix of every tool name, e.g. "example". */
  id: string;
  /** "{service}_mcp", the name the server gives itself. */
  serverName: string;
  version: string;
  /** Told to the client at initialisation: what the server is for and where to start. */
  instructions: string;
  /** The service's own settings (env + flags), beside the core MCP_* ones: one z.object of setting.* builders. */
  settings: SettingsObject<Shape>;
  /** Toolset name -> what it holds, for MCP_TOOLSETS. A tool without a toolset is in the one named by `id`. */
  toolsets?: Record<string, string>;
  tools: AnyTool<Service>[];
  resources?: AnyResource<Service>[];
  /** Cross-setting checks; returns a one-line problem or undefined. */
  checkSettings?(values: ServerValues<Shape>): string | undefined;
  /** Builds what the handlers share (API client, rate limiter), once per process. */
  createService(values: ServerValues<Shape>, core: CoreSettings): Service;
}

export interface ServerOptions {
  readOnly: boolean;
  /** Only tools of these toolsets; all when empty. */
  toolsets: string[];
  /**
   * Each server built is one client's session among many (HTTP): what a client supplies stays with
   * it (see ClientSession.isolated). False or absent: the single client of stdio.
   */
  isolateClients?: boolean;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The tools a server exposes under the given options. Read-only mode wins over any toolset. */
export function enabledTools<S>(definition: ServiceDefinition<S>, options: ServerOptions): AnyTool<S>[] {
  return definition.tools.filter((tool) => {
    if (options.readOnly && !tool.annotations.readOnlyHint) return false;
    return options.toolsets.length === 0 || options.toolsets.includes(tool.toolset ?? definition.id);
  });
}

export function createMcpServer<S>(
  definition: ServiceDefinition<S>,
  service: S,
  options: ServerOptions,
): McpServer {
  const tools = enabledTools(definition, options);
  for (const tool of definition.tools) assertValidTool(definition.id, tool);
  const resources = definition.resources ?? [];

  const mcp = new McpServer(
    { name: definition.serverName, version: definition.version },
    { capabilities: { logging: {} }, instructions: definition.instructions },
  );
  const server = mcp.server;
  const logLevel = new LogLevelState();
  const clientSession: ClientSession = { isolated: options.isolateClients === true };
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    logLevel.level = request.params.level;
    return {};
  });

  const contextFor = (extra: Extra): ToolContext =>
    createToolContext({
      serverName: definition.serverName,
      clientSession,
      server,
      extra,
      logLevel,
      readResource: (uri) => readResource(uri, extra),
    });

  const readResource = async (uri: string, extra: Extra): Promise<string> => {
    const match = matchResource(resources, uri);
    if (!match)
      throw new McpError(ErrorCode.InvalidParams, `No resource of ${definition.serverName} matches ${uri}`);
    const params = validateInput(`resource ${match.resource.name}`, match.resource.params, match.params);
    return match.resource.read(params, contextFor(extra), service);
  };

  // Tools are handled here rather than by McpServer.registerTool so that validation messages, the
  // trimming rule and the error texts are ours, exactly as the conventions word them.
  server.registerCapabilities({ tools: { listChanged: false } });
  const listedTools: Tool[] = tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(inputSchemaOf(tool.input), { io: "input" }) as Tool["inputSchema"],
    outputSchema: outputSchemaOf(tool.output),
    annotations: { title: tool.title, ...tool.annotations },
  }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = tools.find((candidate) => candidate.name === request.params.name);
    if (!tool) {
      const hidden = definition.tools.some((candidate) => candidate.name === request.params.name);
      const why = hidden ? "is not enabled on this server (read-only mode or toolsets)" : "does not exist";
      return textResult(
        `Error: Tool ${request.params.name} ${why}. Call tools/list for the tools available.`,
        true,
      );
    }
    const ctx = contextFor(extra);
    try {
      const args = validateInput(tool.name, tool.input, request.params.arguments);
      const answer = await tool.handler(args, ctx, service);
      return { ...textResult(answer.text, false), structuredContent: answer.structured };
    } catch (error) {
      if (!(error instanceof InvalidInputError)) {
        await ctx.log("error", `${tool.name} failed`, { error: errorName(error) });
      }
      return textResult(errorText(error), true);
    }
  });

  for (const resource of resources) {
    const metadata = {
      title: resource.title,
      description: resource.description,
      mimeType: resource.mimeType,
    };
    const read = async (uri: URL, extra: Extra) => {
      try {
        const text = await readResource(uri.href, extra);
        return { contents: [{ uri: uri.href, mimeType: resource.mimeType, text }] };
      } catch (error) {
        if (error instanceof McpError) throw error;
        const notFound = error instanceof RemoteStatusError && error.status === 404;
        const code = error instanceof InvalidInputError ? ErrorCode.InvalidParams : ErrorCode.InternalError;
        throw new McpError(notFound ? -32002 : code, errorText(error));
      }
    };
    if (resource.uriTemplate.includes("{")) {
      const template = new ResourceTemplate(resource.uriTemplate, { list: undefined });
      mcp.registerResource(resource.name, template, metadata, (uri, _variables, extra) => read(uri, extra));
    } else {
      mcp.registerResource(resource.name, resource.uriTemplate, metadata, read);
    }
  }
  return mcp;
}

/**
 * The JSON Schema of a tool's structured content, as the records are after lenient parsing. Fields
 * are open (records keep unknown remote fields for the json format) and what zod cannot express in
 * JSON Schema (a lenient list's transform) reads as any value.
 */
function outputSchemaOf(shape: z.ZodRawShape): Tool["outputSchema"] {
  return z.toJSONSchema(z.looseObject(shape), {
    io: "output",
    unrepresentable: "any",
  }) as Tool["outputSchema"];
}

function textResult(text: string, isError: boolean): CallToolResult {
  return { content: [{ type: "text", text }], ...(isError ? { isError: true } : {}) };
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
