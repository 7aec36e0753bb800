// ServiceDefinition -> McpServer: registers the tools and resources of one service, applies
// read-only mode and toolsets, and runs every call through the same validation and error boundary.
// One factory serves both protocol eras (2025-11-25 and 2026-07-28) on every transport.
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import {
  type CallToolResult,
  createRequestStateCodec,
  type InputRequiredResult,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceTemplate,
  type ServerContext,
  type Tool,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { subjectHash, toolCallLine, writeToolCallLine } from "./call-log.js";
import type { CoreValues } from "./config.js";
import { type ClientSession, createToolContext, LogLevelState, type ToolContext } from "./context.js";
import { type ErrorKind, errorKind, errorText, InvalidInputError, RemoteStatusError } from "./errors.js";
import { type CallOutcome, countToolCall, withCallLabels } from "./metrics.js";
import { PendingAsks } from "./pending-asks.js";
import type { PublicSecretPages } from "./public-secret-page.js";
import { type AnyResource, matchResource, type ResourceBody } from "./resource.js";
import type { CoreSettings } from "./run.js";
import type { SettingsObject, SettingsShape, ValuesOf } from "./setting.js";
import { type AnyTool, assertValidTool, type FileResource } from "./tool.js";
import { type AskState, InputRequiredSignal } from "./url-ask.js";
import { inputSchemaOf, validateInput } from "./validate.js";

/** What a server's handlers and checks read: the core MCP_* values and the service's own, typed. */
export type ServerValues<Shape extends SettingsShape> = CoreValues & ValuesOf<Shape>;

/** A page of a service (or of core) on the HTTP transport, answered without the MCP bearer token. */
export interface HttpRoute {
  /** Exact path, e.g. "/oauth/protocols/callback"; with `prefix`, every path under it. */
  path: string;
  prefix?: boolean;
  /** Default GET and HEAD. */
  methods?: string[];
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
}

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
  /**
   * Pages of the service on the HTTP transport beside the MCP endpoint, answered to GET before the
   * bearer check (a browser follows a redirect there without the MCP token): e.g. an OAuth callback.
   */
  httpRoutes?(service: Service): HttpRoute[];
  /** Builds what the handlers share (API client, rate limiter), once per process. */
  createService(values: ServerValues<Shape>, core: CoreSettings): Service;
}

export interface ServerOptions {
  readOnly: boolean;
  /** Only tools of these toolsets; all when empty. */
  toolsets: string[];
  /** MCP_ALLOW_DESTRUCTIVE: offer the tools that delete or replace data (destructiveHint true). */
  allowDestructive?: boolean;
  /**
   * Each server built is one client's session among many (HTTP): what a client supplies stays with
   * it (see ClientSession.isolated). False or absent: the single client of stdio.
   */
  isolateClients?: boolean;
  /** Signs requestState (derived from MCP_STATE_KEY), so that every replica reads another's; random otherwise. */
  requestStateKey?: Buffer;
  /** Team mode: the secret pages on the public URL, for signed-in people. */
  secretPages?: PublicSecretPages;
  /** MCP_LOG_CALLS: one JSON line on stderr per tool call (call-log.ts). */
  logCalls?: boolean;
  /** Keys the caller's hash in those lines (derived from MCP_STATE_KEY, alike on every replica); random otherwise. */
  logSubjectKey?: Buffer;
}

/**
 * Why a server with these options (and this service) does not offer `tool`, as a sentence an agent
 * reads; undefined when it does. Read-only mode wins over any toolset; a tool may say itself that the
 * service cannot serve it (e.g. writes on a server signed in with a read-only token); a destructive
 * tool needs MCP_ALLOW_DESTRUCTIVE.
 */
export function whyHidden<S>(
  definition: ServiceDefinition<S>,
  tool: AnyTool<S>,
  options: ServerOptions,
  service?: S,
): string | undefined {
  if (options.readOnly && !tool.annotations.readOnlyHint) return READ_ONLY_OR_TOOLSETS;
  const toolset = tool.toolset ?? definition.id;
  if (options.toolsets.length > 0 && !options.toolsets.includes(toolset)) return READ_ONLY_OR_TOOLSETS;
  const unavailable = service === undefined ? undefined : tool.unavailable?.(service);
  if (unavailable) return unavailable;
  if (tool.annotations.destructiveHint && !options.allowDestructive) {
    return (
      `Tool ${tool.name} deletes or replaces data, which this server offers only with MCP_ALLOW_DESTRUCTIVE=true. ` +
      "Set it and restart the server to use it."
    );
  }
  return undefined;
}

const READ_ONLY_OR_TOOLSETS = "it is not enabled on this server (read-only mode or toolsets)";

/** The tools a server offers under the given options, for this service when given. */
export function enabledTools<S>(
  definition: ServiceDefinition<S>,
  options: ServerOptions,
  service?: S,
): AnyTool<S>[] {
  return definition.tools.filter((tool) => whyHidden(definition, tool, options, service) === undefined);
}

/** How long clients may cache what is the same for every caller until the server restarts. */
const LIST_CACHE = { ttlMs: 10 * 60 * 1000, cacheScope: "public" } as const;
const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";

/** Builds the McpServer instances of one service: one per connection, session or stateless request. */
export type ServerFactory = (clientSession: ClientSession) => McpServer;

/**
 * What every instance shares is built once per process: the tool list as agents see it, the pages
 * opened for users across the rounds of a request, and the key that signs requestState.
 */
export function createServerFactory<S>(
  definition: ServiceDefinition<S>,
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
    inputSchema: z.toJSONSchema(inputSchemaOf(tool.input), { io: "input" }) as Tool["inputSchema"],
    outputSchema: outputSchemaOf(tool.output),
    annotations: { title: tool.title, ...tool.annotations },
  }));
  const pending = new PendingAsks();
  // The state only names a page of this process for a caller; a fresh key per process is enough.
  const codec = createRequestStateCodec<AskState>({
    key: options.requestStateKey ?? randomBytes(32),
    ttlSeconds: 15 * 60,
  });
  const subjectKey = options.logSubjectKey ?? randomBytes(32);
  const recordCall: CallRecorder = (clientSession, call) => {
    const server = definition.serverName;
    countToolCall({ server, ...call });
    if (!options.logCalls) return;
    writeToolCallLine(toolCallLine({ server, ...call, subject: subjectHash(clientSession, subjectKey) }));
  };
  return (clientSession) =>
    buildServer({
      definition,
      service,
      options,
      tools,
      listedTools,
      pending,
      codec,
      clientSession,
      recordCall,
    });
}

/** How a tool call ended, as the metrics and the call log see it: names and kinds, never arguments. */
interface CallRecord {
  /** The tool's name; "unknown" for a name the server does not have (what a client sends is no label). */
  tool: string;
  outcome: CallOutcome;
  error?: ErrorKind;
  durationMs: number;
}

type CallRecorder = (clientSession: ClientSession, call: CallRecord) => void;

/** One instance for a single client (stdio, or a test's in-memory link). */
export function createMcpServer<S>(
  definition: ServiceDefinition<S>,
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

function buildServer<S>(parts: {
  definition: ServiceDefinition<S>;
  service: S;
  options: ServerOptions;
  tools: AnyTool<S>[];
  listedTools: Tool[];
  pending: PendingAsks;
  codec: ReturnType<typeof createRequestStateCodec<AskState>>;
  clientSession: ClientSession;
  recordCall: CallRecorder;
}): McpServer {
  const { definition, service, options, tools, listedTools, pending, codec, clientSession, recordCall } =
    parts;
  const resources = definition.resources ?? [];
  const mcp = new McpServer(
    { name: definition.serverName, version: definition.version },
    {
      capabilities: { logging: {}, tools: { listChanged: false } },
      instructions: definition.instructions,
      cacheHints: {
        "tools/list": LIST_CACHE,
        "resources/list": LIST_CACHE,
        "resources/templates/list": LIST_CACHE,
        "server/discover": LIST_CACHE,
      },
      requestState: { verify: codec.verify },
    },
  );

  // A 2025-era session keeps the level its client chose; a 2026 request carries its own.
  const sessionLogLevel = new LogLevelState();
  mcp.server.setRequestHandler("logging/setLevel", (request) => {
    sessionLogLevel.level = request.params.level;
    return {};
  });

  const contextFor = (request: ServerContext): ToolContext => {
    const state = request.mcpReq.requestState<AskState>();
    const legacy = request.mcpReq.envelope === undefined;
    return createToolContext({
      sessionLogLevel: legacy ? sessionLogLevel : undefined,
      serverName: definition.serverName,
      clientSession,
      request,
      canOpenUrls: canOpenUrls(mcp, request),
      secretPages: options.secretPages,
      askRound: {
        caller: clientSession.caller,
        state: state && typeof state === "object" ? state : undefined,
        inputResponses: request.mcpReq.inputResponses,
        pending,
        mint: (value) => codec.mint(value),
        legacy,
      },
      readResource: async (uri) => bodyText((await readResource(uri, request)).body),
    });
  };

  const readResource = async (
    uri: string,
    request: ServerContext,
  ): Promise<{ mimeType: string; body: ResourceBody }> => {
    const match = matchResource(resources, uri);
    if (!match)
      throw new ProtocolError(
        ProtocolErrorCode.ResourceNotFound,
        `No resource of ${definition.serverName} matches ${uri}`,
        { uri },
      );
    const params = validateInput(`resource ${match.resource.name}`, match.resource.params, match.params);
    const labels = { service: definition.id, tool: `resource:${match.resource.name}` };
    return {
      mimeType: match.resource.mimeType,
      body: await withCallLabels(labels, () => match.resource.read(params, contextFor(request), service)),
    };
  };

  // Tools are handled here rather than by McpServer.registerTool so that validation messages, the
  // trimming rule and the error texts are ours, exactly as the conventions word them.
  mcp.server.setRequestHandler("tools/list", () => ({ tools: listedTools }));
  type Answer = CallToolResult | InputRequiredResult;
  const callTool = async (
    request: { params: { name: string; arguments?: Record<string, unknown> } },
    extra: ServerContext,
  ): Promise<{ result: Answer; tool: string; outcome: CallOutcome; error?: ErrorKind }> => {
    const tool = tools.find((candidate) => candidate.name === request.params.name);
    if (!tool) {
      const hidden = definition.tools.find((candidate) => candidate.name === request.params.name);
      const why = hidden ? whyHidden(definition, hidden, options, service) : undefined;
      const failed = (text: string) => ({
        result: textResult(text, true),
        tool: hidden?.name ?? "unknown",
        outcome: "error" as const,
        error: hidden ? ("tool_unavailable" as const) : ("unknown_tool" as const),
      });
      if (why === READ_ONLY_OR_TOOLSETS || !hidden) {
        const what = hidden ? "is not enabled on this server (read-only mode or toolsets)" : "does not exist";
        return failed(`Error: Tool ${request.params.name} ${what}. Call tools/list for the tools available.`);
      }
      return failed(`Error: ${why}`);
    }
    const ctx = contextFor(extra);
    const labels = { service: definition.id, tool: tool.name };
    try {
      const args = validateInput(tool.name, tool.input, request.params.arguments);
      const answer = await withCallLabels(labels, () => tool.handler(args, ctx, service));
      const result = textResult(answer.text, false);
      result.content.push(...(answer.files ?? []).flatMap(fileContent));
      return { result: { ...result, structuredContent: answer.structured }, tool: tool.name, outcome: "ok" };
    } catch (error) {
      if (error instanceof InputRequiredSignal) {
        return { result: error.result, tool: tool.name, outcome: "input_required" };
      }
      if (!(error instanceof InvalidInputError)) {
        await ctx.log("error", `${tool.name} failed`, { error: errorName(error) });
      }
      const kind = errorKind(error);
      return { result: textResult(errorText(error), true), tool: tool.name, outcome: "error", error: kind };
    }
  };
  mcp.server.setRequestHandler("tools/call", async (request, extra): Promise<Answer> => {
    const started = performance.now();
    const { result, ...call } = await callTool(request, extra);
    recordCall(clientSession, { ...call, durationMs: performance.now() - started });
    return result;
  });

  // The SDK lists the resources and templates; reading is ours, so that a URI is matched by
  // core/resource.ts (query parameters in any order, or none) and read through the one boundary.
  for (const resource of resources) {
    const metadata = {
      title: resource.title,
      description: resource.description,
      mimeType: resource.mimeType,
    };
    const read = (uri: URL, request: ServerContext) => readResult(uri.href, request);
    if (resource.uriTemplate.includes("{")) {
      const template = new ResourceTemplate(resource.uriTemplate, { list: undefined });
      mcp.registerResource(resource.name, template, metadata, (uri, _variables, request) =>
        read(uri, request),
      );
    } else {
      mcp.registerResource(resource.name, resource.uriTemplate, metadata, read);
    }
  }
  const readResult = async (uri: string, request: ServerContext): Promise<ReadResourceResult> => {
    try {
      const { mimeType, body } = await readResource(uri, request);
      const content =
        typeof body === "string"
          ? { uri, mimeType, text: body }
          : { uri, mimeType, blob: Buffer.from(body).toString("base64") };
      return { contents: [content] };
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      const notFound = error instanceof RemoteStatusError && error.status === 404;
      const code =
        error instanceof InvalidInputError
          ? ProtocolErrorCode.InvalidParams
          : ProtocolErrorCode.InternalError;
      // The URI rides along in the error's data, as SEP-2164 asks of a resource that is not there.
      throw new ProtocolError(notFound ? ProtocolErrorCode.ResourceNotFound : code, errorText(error), {
        uri,
      });
    }
  };
  if (resources.length > 0) {
    mcp.server.setRequestHandler("resources/read", (request, extra) => readResult(request.params.uri, extra));
  }
  return mcp;
}

/** Whether the client can open a URL for the user: per request in the 2026 era, per session before. */
function canOpenUrls(mcp: McpServer, request: ServerContext): boolean {
  const declared = request.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = (declared?.[CLIENT_CAPABILITIES_KEY] ?? mcp.server.getClientCapabilities()) as
    | { elicitation?: { url?: unknown } }
    | undefined;
  return Boolean(capabilities?.elicitation?.url);
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function bodyText(body: ResourceBody): string {
  return typeof body === "string" ? body : Buffer.from(body).toString("base64");
}

/** The largest file embedded in a tool result; a bigger one is only linked, for the client to read. */
export const MAX_EMBEDDED_BYTES = 512 * 1024;

/** A file as content blocks: a resource_link, and the resource itself when it is small enough. */
function fileContent(file: FileResource): CallToolResult["content"] {
  const size = file.body === undefined ? undefined : byteLength(file.body);
  const link = {
    type: "resource_link" as const,
    uri: file.uri,
    name: file.name,
    ...(file.title ? { title: file.title } : {}),
    mimeType: file.mimeType,
    ...(size === undefined ? {} : { size }),
  };
  if (file.body === undefined || file.embed === false || (size ?? 0) > MAX_EMBEDDED_BYTES) return [link];
  const resource =
    typeof file.body === "string"
      ? { uri: file.uri, mimeType: file.mimeType, text: file.body }
      : { uri: file.uri, mimeType: file.mimeType, blob: Buffer.from(file.body).toString("base64") };
  return [link, { type: "resource", resource }];
}

function byteLength(body: ResourceBody): number {
  return typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
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
