// ToolContext: what a tool handler may do besides its remote calls: report progress, log to the
// client, read one of the server's resources, ask the user through a page, and know which server it runs
// in and for whom. The contract only: server/tool-context.ts builds it for each call.
import type { ClientSession } from "./caller.js";
import type { RequestScope } from "./http/remote-client.js";
import type { SecretAnswer, SecretPageText } from "./pages/secret-page.js";
import type { OpenUrlOutcome, OpenUrlRequest } from "./pages/url-ask.js";

export type ToolLogLevel = "info" | "warning" | "error" | "debug";

export interface ToolContext extends RequestScope {
  readonly serverName: string;
  readonly clientSession: ClientSession;
  /** Aborted when the client cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** Reports how far a long operation is, as a fraction from 0 to 1, with a short message. */
  progress(fraction: number, message?: string): Promise<void>;
  log(level: ToolLogLevel, message: string, data?: Record<string, unknown>): Promise<void>;
  /** Reads a resource of this server by URI, as a client would. */
  readResource(uri: string): Promise<string>;
  /**
   * Asks the user for a secret on a one-time local page opened through URL-mode elicitation.
   * Undefined when the client cannot open URLs, or the user declines or does not answer in time.
   */
  askForSecret(text: SecretPageText & { message: string }): Promise<SecretAnswer | undefined>;
  /** Whether the client can open a URL for the user (URL-mode elicitation). */
  canOpenUrls(): boolean;
  /**
   * Has the client open a page for the user, in its protocol's way (a 2026-07-28 client: an "input
   * required" answer and a retry; a 2025-11-25 client: URL-mode elicitation), then waits for what the
   * page settles with once the user is done there (a form posted to a local page, a redirect reaching
   * a local listener). `open` runs once per ask, not per round; the page is closed when the ask ends.
   * A rejected page rejects.
   */
  openUrl<T>(request: OpenUrlRequest<T>): Promise<OpenUrlOutcome<T>>;
}
