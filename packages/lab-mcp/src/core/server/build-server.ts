// One McpServer for one caller (a stdio client, a 2025 session, a 2026 request): the log level a
// session chose, the ToolContext of each call, and the handlers of tools/list, tools/call and the
// resources, all answered by what the factory built once per process.
import { performance } from "node:perf_hooks";
import {
  type createRequestStateCodec,
  McpServer,
  type ServerContext,
  type Tool,
} from "@modelcontextprotocol/server";
import type { ClientSession } from "../caller.js";
import type { ToolContext } from "../context.js";
import type { PendingAsks } from "../pages/pending-asks.js";
import type { AskState } from "../pages/url-ask.js";
import type { AnyTool } from "../tool.js";
import { rendersViews, VIEW_EXTENSION } from "../view.js";
import type { ServedService, ServerOptions } from "./options.js";
import { bodyText, registerResources, resourceReader } from "./resources.js";
import { type CallAnswer, type CallRecord, callTool } from "./tool-call.js";
import { createToolContext, LogLevelState } from "./tool-context.js";

/** How long clients may cache what is the same for every caller until the server restarts. */
const LIST_CACHE = { ttlMs: 10 * 60 * 1000, cacheScope: "public" } as const;
const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";

/** Counts a call and writes its log line (ops/): how it ended, for whom, in how long. */
export type CallRecorder = (clientSession: ClientSession, call: CallRecord & { durationMs: number }) => void;

/** What every instance of one process shares, built once by the factory. */
export interface SharedParts<S> {
  definition: ServedService<S>;
  service: S;
  options: ServerOptions;
  /** The tools offered, in the order tools/list shows them, and that list. */
  tools: AnyTool<S>[];
  listedTools: Tool[];
  /** The pages opened for users across the rounds of a request. */
  pending: PendingAsks;
  /** Signs and verifies requestState. */
  codec: ReturnType<typeof createRequestStateCodec<AskState>>;
  recordCall: CallRecorder;
}

export function buildServer<S>(parts: SharedParts<S>, clientSession: ClientSession): McpServer {
  const { definition, codec } = parts;
  const mcp = new McpServer(
    { name: definition.serverName, version: definition.version },
    {
      capabilities: {
        logging: {},
        tools: { listChanged: false },
        // MCP Apps: the server offers views (core/view.ts), where a tool links to one.
        ...(parts.tools.some((tool) => tool.view) ? { extensions: { [VIEW_EXTENSION]: {} } } : {}),
      },
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
  const sessionLogLevel = followLogLevel(mcp);
  const contextFor = (request: ServerContext): ToolContext =>
    callContext(parts, mcp, clientSession, sessionLogLevel, request, readResource);
  const readResource = resourceReader(definition, parts.service, contextFor);
  answerTools(mcp, parts, clientSession, contextFor);
  registerResources(mcp, definition, readResource);
  return mcp;
}

/** A 2025-era session keeps the level its client chose; a 2026 request carries its own. */
function followLogLevel(mcp: McpServer): LogLevelState {
  const sessionLogLevel = new LogLevelState();
  mcp.server.setRequestHandler("logging/setLevel", (request) => {
    sessionLogLevel.level = request.params.level;
    return {};
  });
  return sessionLogLevel;
}

/** The ToolContext of one request: its era, its round of an ask, what it may read. */
function callContext<S>(
  parts: SharedParts<S>,
  mcp: McpServer,
  clientSession: ClientSession,
  sessionLogLevel: LogLevelState,
  request: ServerContext,
  readResource: ReturnType<typeof resourceReader>,
): ToolContext {
  const state = request.mcpReq.requestState<AskState>();
  const legacy = request.mcpReq.envelope === undefined;
  return createToolContext({
    sessionLogLevel: legacy ? sessionLogLevel : undefined,
    serverName: parts.definition.serverName,
    clientSession,
    request,
    canOpenUrls: canOpenUrls(mcp, request),
    secretPages: parts.options.secretPages,
    askRound: {
      caller: clientSession.caller,
      owner: clientSession.person ? `person ${clientSession.person.subject}` : clientSession.caller,
      state: state && typeof state === "object" ? state : undefined,
      inputResponses: request.mcpReq.inputResponses,
      pending: parts.pending,
      mint: (value) => parts.codec.mint(value),
      legacy,
    },
    readResource: async (uri) => bodyText((await readResource(uri, request)).body),
  });
}

/**
 * tools/list and tools/call, handled here rather than by McpServer.registerTool so that validation
 * messages, the trimming rule and the error texts are ours, exactly as the conventions word them.
 */
function answerTools<S>(
  mcp: McpServer,
  parts: SharedParts<S>,
  clientSession: ClientSession,
  contextFor: (request: ServerContext) => ToolContext,
): void {
  mcp.server.setRequestHandler("tools/list", () => ({ tools: parts.listedTools }));
  const target = {
    ...parts,
    contextFor,
    rendersViews: (request: ServerContext) => clientRendersViews(mcp, request),
  };
  mcp.server.setRequestHandler("tools/call", async (request, extra): Promise<CallAnswer> => {
    const started = performance.now();
    const { result, ...call } = await callTool(target, request, extra);
    parts.recordCall(clientSession, { ...call, durationMs: performance.now() - started });
    return result;
  });
}

/** What the client declared it can do: per request in the 2026 era, per session before. */
function clientCapabilities(mcp: McpServer, request: ServerContext): unknown {
  const declared = request.mcpReq.envelope as Record<string, unknown> | undefined;
  return declared?.[CLIENT_CAPABILITIES_KEY] ?? mcp.server.getClientCapabilities();
}

/** Whether the client can open a URL for the user. */
function canOpenUrls(mcp: McpServer, request: ServerContext): boolean {
  const capabilities = clientCapabilities(mcp, request) as { elicitation?: { url?: unknown } } | undefined;
  return Boolean(capabilities?.elicitation?.url);
}

/** Whether the client renders views (MCP Apps). */
function clientRendersViews(mcp: McpServer, request: ServerContext): boolean {
  return rendersViews(clientCapabilities(mcp, request));
}
