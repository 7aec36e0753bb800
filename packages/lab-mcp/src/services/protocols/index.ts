// protocols_mcp: search, read and download the protocols of the protocol repository, with a client
// token or as the user who signed in with OAuth.
import { noAuth } from "../../core/http/auth.js";
import { RemoteClient } from "../../core/http/remote-client.js";
import type { ServiceRuntime } from "../../core/runtime.js";
import { WRITES_TOOLSET } from "../../core/server/toolsets.js";
import type { ServiceDefinition } from "../../core/start/service.js";
import type { StateSettings } from "../../core/state/open.js";
import type { SharedState } from "../../core/state/shared-state.js";
import { SIGN_IN_TIMEOUT_MS } from "./auth/code-flow.js";
import { PendingSignIns } from "./auth/pending-sign-ins.js";
import { callbackRoute, connectRoute } from "./auth/personal-sign-in.js";
import { protocolsPersonNamesKey, SharedTokenStore, sharedStateWhere } from "./auth/shared-token-store.js";
import { TokenEndpoint } from "./auth/token-endpoint.js";
import type { SignInOwner } from "./auth/token-store.js";
import { ProtocolsClient } from "./client.js";
import { ProtocolsCredentialSource } from "./credential-source.js";
import { protocolPdfResource, protocolResource, protocolStepsResource } from "./resources.js";
import {
  checkProtocolsSettings,
  PROTOCOLS_SETTINGS,
  type ProtocolsShape,
  type ProtocolsValues,
  protocolsConfigOf,
} from "./settings.js";
import { createDraft } from "./tools/create-draft.js";
import { deleteStep } from "./tools/delete-step.js";
import { downloadPdf } from "./tools/download-pdf.js";
import { editStep } from "./tools/edit-step.js";
import { getProfile } from "./tools/get-profile.js";
import { getProtocol } from "./tools/get-protocol.js";
import { insertStep } from "./tools/insert-step.js";
import { listMyProtocols } from "./tools/list-my-protocols.js";
import { listWorkspacesTool } from "./tools/list-workspaces.js";
import { searchProtocols } from "./tools/search.js";
import { setSteps } from "./tools/set-steps.js";
import { signInTool } from "./tools/sign-in.js";
import { signOutTool } from "./tools/sign-out.js";
import { updateDraft } from "./tools/update-draft.js";

/** Beyond the token request's timeout, how long a renewal may hold the fleet's lock. */
const RENEWAL_LOCK_MARGIN_MS = 5000;

/** The API client of a configuration; also what `protocols-mcp login` and `logout` work with. */
export function createProtocolsClient(values: ProtocolsValues, runtime: ServiceRuntime): ProtocolsClient {
  const { requestTimeoutMs: timeoutMs, state, stateSettings, team } = runtime;
  const config = {
    ...protocolsConfigOf(values, runtime.env),
    saveFilesByDefault: runtime.transport === "stdio",
  };
  const limits = {
    maxResponseBytes: runtime.maxResponseBytes,
    maxPdfBytes: values.PROTOCOLS_MAX_PDF_BYTES,
  };
  const endpoint = config.oauth
    ? new TokenEndpoint(
        new RemoteClient({
          baseUrl: config.baseUrl,
          auth: noAuth,
          timeoutMs,
          maxResponseBytes: limits.maxResponseBytes,
        }),
        config.oauth,
      )
    : undefined;
  const where = stateSettings?.redisUrl
    ? sharedStateWhere(stateSettings.redisUrl, stateSettings.prefix)
    : "this server's memory";
  const credentials = new ProtocolsCredentialSource(
    config,
    endpoint,
    fleetSignIn(state, stateSettings, timeoutMs),
    team
      ? (owner, person) =>
          new SharedTokenStore(state, owner, where, timeoutMs + RENEWAL_LOCK_MARGIN_MS, person)
      : undefined,
    team
      ? new PendingSignIns(
          state,
          SIGN_IN_TIMEOUT_MS,
          runtime.browserSignIn,
          protocolsPersonNamesKey(stateSettings?.key),
        )
      : undefined,
    protocolsPersonNamesKey(stateSettings?.key),
  );
  return new ProtocolsClient(credentials, timeoutMs, state, limits);
}

/**
 * With Redis, the operator's sign-in is the fleet's: kept in the shared state rather than in one
 * replica's token file. A renewal holds its lock for the token request's timeout and a margin.
 */
function fleetSignIn(state: SharedState, settings: StateSettings | undefined, timeoutMs: number) {
  const redisUrl = settings?.redisUrl;
  if (state.kind !== "redis" || !settings || !redisUrl) return undefined;
  const where = sharedStateWhere(redisUrl, settings.prefix);
  return (owner: SignInOwner) =>
    new SharedTokenStore(state, owner, where, timeoutMs + RENEWAL_LOCK_MARGIN_MS);
}

const protocols = {
  id: "protocols",
  serverName: "protocols_mcp",
  version: "0.1.0",
  instructions:
    "Search, read and download lab protocols of the protocol repository: steps, materials, authors, DOIs, PDFs. " +
    "Start with protocols_search; if a tool says you are not signed in, call protocols_sign_in. Signed in with " +
    "OAuth, on a server that offers writes, you can also write private drafts; nothing is ever published by a tool.",
  settings: PROTOCOLS_SETTINGS,
  // No defaultToolsets: every toolset but writes is served by default (core/server/toolsets.ts).
  toolsets: {
    protocols: "Search, list and read protocols: steps, materials, versions",
    pdfs: "Download protocols as PDF files",
    account: "Who you are signed in as, and signing in",
    workspaces: "Workspaces and their published protocols",
    [WRITES_TOOLSET]: "Write your private drafts and their steps (OAuth sign-in)",
  },
  tools: [
    searchProtocols,
    getProtocol,
    listMyProtocols,
    listWorkspacesTool,
    downloadPdf,
    getProfile,
    signInTool,
    signOutTool,
    createDraft,
    updateDraft,
    setSteps,
    insertStep,
    editStep,
    deleteStep,
  ],
  resources: [protocolPdfResource, protocolStepsResource, protocolResource],
  checkSettings: (values) => checkProtocolsSettings(values, values.MCP_AUTH_AUDIENCE),
  createService: createProtocolsClient,
  credentials: (client) => client.credentials,
  httpRoutes(client) {
    const { pending } = client.credentials;
    return pending ? [connectRoute(client, pending), callbackRoute(client, pending)] : [];
  },
} satisfies ServiceDefinition<ProtocolsClient, ProtocolsShape>;

export const protocolsService: ServiceDefinition<ProtocolsClient, ProtocolsShape> = protocols;

/** The names of protocols_mcp's tools as literal types: the keys a table of every tool must have. */
export type ProtocolsToolName = (typeof protocols.tools)[number]["name"];
