// What the MCP server is built from: the part of a service it serves (tools, resources, toolsets, its
// name) and the options of this process (read-only mode, toolsets, the keys that sign and hash).

import type { CredentialOf, CredentialSource } from "../credentials/credential-source.js";
import type { PublicSecretPages } from "../pages/public-secret-page.js";
import type { AnyResource } from "../resource.js";
import type { AnyTool } from "../tool.js";

/** What the MCP server serves of a service (core/service.ts adds its settings and how it is built). */
export interface ServedService<Service> {
  /** Prefix of every tool name, e.g. "example". */
  id: string;
  /** "{service}_mcp", the name the server gives itself. */
  serverName: string;
  version: string;
  /** Told to the client at initialisation: what the server is for and where to start. */
  instructions: string;
  /** Toolset name -> what it holds, for MCP_TOOLSETS. A tool without a toolset is in the one named by `id`. */
  toolsets?: Record<string, string>;
  /**
   * The toolsets served when MCP_TOOLSETS is unset (or names `default`): what most users ask for, so that
   * every conversation does not pay for every tool. Every toolset but `writes` when left out.
   */
  defaultToolsets?: string[];
  tools: AnyTool<Service>[];
  /**
   * Where the service's calls get their credential: climbed once per call at the tool-call boundary
   * (server/call-credential.ts), as each tool's `credential` says. None: no tool needs one.
   */
  credentials?(service: Service): CredentialSource<CredentialOf<Service>>;
  /**
   * True: a markdown answer's structured content is what each tool's output schema declares (the ids,
   * names and figures the text shows); response_format=json still carries everything. See structured-copy.ts.
   */
  briefStructured?: boolean;
  resources?: AnyResource<Service>[];
}

export interface ServerOptions {
  readOnly: boolean;
  /** Only tools (and resources) of these toolsets; all when empty. */
  toolsets: string[];
  /** MCP_TOOLS: single tools offered besides those of the toolsets (read-only mode and the gate still apply). */
  tools?: string[];
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
  /** MCP_LOG_CALLS: one JSON line on stderr per tool call (ops/call-log.ts). */
  logCalls?: boolean;
  /** Keys the caller's hash in those lines (derived from MCP_STATE_KEY, alike on every replica); random otherwise. */
  logSubjectKey?: Buffer;
}
