// What a service may read of core's settings, handed to its createService: the one way MCP_* settings
// reach a service. The rest of the core settings (host, port, tokens, toolsets) are the transport's and
// the MCP server's, and a service has no use for them.
import type { BrowserSignIn } from "./pages/browser-sign-in.js";
import type { StateSettings } from "./state/open.js";
import type { SharedState } from "./state/shared-state.js";

export interface ServiceRuntime {
  /** MCP_REQUEST_TIMEOUT, in milliseconds: how long one remote request may take, to its last byte. */
  readonly requestTimeoutMs: number;
  /** MCP_MAX_RESPONSE_BYTES: the largest answer read from the remote. */
  readonly maxResponseBytes: number;
  /** MCP_TRANSPORT: over stdio the client runs on this computer (a file saved is the user's). */
  readonly transport: "stdio" | "http";
  /** Team mode (MCP_AUTH_ISSUER): every HTTP request is a signed-in person's, who keeps their own credentials. */
  readonly team: boolean;
  /**
   * Team mode with the server's own client (MCP_AUTH_CLIENT_ID): signs a browser in at the
   * authorization server, so that a page acts only for the person it was opened for.
   */
  readonly browserSignIn?: BrowserSignIn;
  /** MCP_AUTH_ISSUER in team mode: where a service exchanges a person's token for a remote's (RFC 8693). */
  readonly authIssuer?: string;
  /** Rate budgets, tokens and cursors: this process's own, or the fleet's in Redis. */
  readonly state: SharedState;
  /** REDIS_URL, MCP_STATE_PREFIX, MCP_STATE_KEY: where the shared state is, when not in this process. */
  readonly stateSettings?: StateSettings;
  /** The environment the settings were read from (where the user's config folder is). */
  readonly env: NodeJS.ProcessEnv;
}
