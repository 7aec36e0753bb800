// ToolContext: what a tool handler may do besides its remote calls: report progress, log to the
// client, read one of the server's resources, and know which server it runs in.
import type { LoggingLevel, ServerContext, ServerNotification } from "@modelcontextprotocol/server";
import type { RequestScope } from "./http/remote-client.js";
import type { OpenedPage } from "./pending-asks.js";
import type { PublicSecretPages } from "./public-secret-page.js";
import { openSecretPage, type SecretAnswer, type SecretPageText } from "./secret-page.js";
import { type AskRound, askForUrl, WAIT_PROGRESS_EVERY_MS } from "./url-ask.js";

export type ToolLogLevel = "info" | "warning" | "error" | "debug";

/**
 * Who a call is made for, as far as client-supplied credentials go: today the MCP session (one object
 * per session over HTTP, the only one over stdio). Services key what a client supplied (a key typed on
 * a page, a sign-in) by this object, in WeakMaps, so it lives as long as the identity does. Another
 * identity (a signed-in subject over stateless HTTP) only has to hand every call of the same subject
 * the same object.
 */
export interface ClientSession {
  /**
   * Who the caller is, for binding what outlives one request (a page opened for them, its signed
   * requestState) to them alone: the MCP session over HTTP (2025-11-25), the bearer token's identity
   * over stateless HTTP (2026-07-28), the one client of stdio.
   */
  readonly caller: string;
  /**
   * True over HTTP, where one process serves many clients: a credential a client supplies belongs to
   * its session alone, in memory, never stored, never used for or seen by another client. Over stdio
   * the one client is the user who started the server, and what it supplies may be kept for them.
   */
  readonly isolated: boolean;
  /**
   * True when nothing identifies the caller beyond this one request (a 2026-07-28 request over HTTP
   * without MCP_HTTP_TOKEN): what it supplies serves this call alone.
   */
  readonly thisCallOnly?: boolean;
  /**
   * The person, when the server is an OAuth resource server (MCP_AUTH_ISSUER): verified from their
   * access token on every request, the same on every replica. What they supply (an API key, a
   * sign-in) is bound to it in the shared state, for them alone.
   */
  readonly person?: Person;
}

/** A person signed in to the MCP server through its authorization server. */
export interface Person {
  /** `<issuer> <sub>`: stable, unique across issuers. Never shown; logged only as a keyed hash. */
  readonly subject: string;
  /** What the token says of them, for messages to them (e.g. their email); may be absent. */
  readonly email?: string;
  /** Their access token as they sent it, for a remote that trusts the same identity provider. */
  readonly accessToken: string;
}

/** What a service needs of a caller to keep client-supplied credentials apart. */
export interface SessionScoped {
  readonly clientSession?: ClientSession;
}

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

export interface OpenUrlRequest<T> {
  /** Why the user should open the page. */
  message: string;
  /** Opens the page (called on the first round only). */
  open(): Promise<OpenedPage<T>>;
  /** The same page, opened by another replica (OpenedPage.resumeToken), when this one can wait for it too. */
  resume?(token: string): OpenedPage<T> | undefined;
  /** How long the user has, from the request to the end (default 10 minutes). */
  timeoutMs?: number;
  /** The progress message sent now and then while waiting, which also keeps the call alive. */
  waitingMessage?: string;
}

export type OpenUrlOutcome<T> =
  | { status: "done"; value: T }
  | { status: "unsupported" | "declined" | "timeout" };

const LEVEL_ORDER: LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** The minimum level a 2025-era client asked for with logging/setLevel (info until it asks). */
export class LogLevelState {
  level: LoggingLevel = "info";
  allows(level: LoggingLevel): boolean {
    return LEVEL_ORDER.indexOf(level) >= LEVEL_ORDER.indexOf(this.level);
  }
}

export function createToolContext(options: {
  serverName: string;
  clientSession: ClientSession;
  /** The SDK's context of the request being answered. */
  request: ServerContext;
  /** Whether the client can open a URL for the user (URL-mode elicitation), in either era. */
  canOpenUrls: boolean;
  /** The ask of this request across its rounds. */
  askRound: AskRound;
  readResource: (uri: string) => Promise<string>;
  /** The level a 2025-era client chose with logging/setLevel (info until it asks); absent in 2026. */
  sessionLogLevel?: LogLevelState;
  /** A team server's secret pages, on its public URL (for a signed-in person, whose browser is elsewhere). */
  secretPages?: PublicSecretPages;
}): ToolContext {
  const { serverName, request } = options;
  const { signal } = request.mcpReq;
  const progressToken = request.mcpReq._meta?.progressToken;
  let lastProgress = -1;

  // Notifications go out tied to the request, so that over HTTP they travel on the call's own stream.
  const notify = async (notification: ServerNotification) => {
    if (signal.aborted) return;
    try {
      await request.mcpReq.notify(notification);
    } catch {
      // A client that went away cannot hear it; the call itself decides what happens next.
    }
  };

  let waitTicker: { stop(): void } | undefined;
  const context: ToolContext = {
    serverName,
    clientSession: options.clientSession,
    signal,
    async progress(fraction, message) {
      if (progressToken === undefined) return;
      // The spec wants progress to increase with every notification.
      const value = Math.min(1, Math.max(fraction, lastProgress + 1e-6, 0));
      lastProgress = value;
      await notify({
        method: "notifications/progress",
        params: { progressToken, progress: value, total: 1, ...(message ? { message } : {}) },
      });
    },
    async log(level, message, data) {
      // The SDK applies the level the client chose: per session (logging/setLevel) in the 2025 era,
      // per request (the _meta log level) in the 2026 era, where no level means no logs.
      if (signal.aborted || (options.sessionLogLevel && !options.sessionLogLevel.allows(level))) return;
      await request.mcpReq
        .log(level, data ? { message, ...data } : message, serverName)
        .catch(() => undefined);
    },
    readResource: options.readResource,
    canOpenUrls() {
      return options.canOpenUrls;
    },
    async openUrl<T>(ask: OpenUrlRequest<T>): Promise<OpenUrlOutcome<T>> {
      if (!options.canOpenUrls) return { status: "unsupported" };
      return askForUrl(ask, { round: options.askRound, signal, notify, every });
    },
    async askForSecret({ message, ...text }) {
      if (!options.canOpenUrls) return undefined;
      // Over HTTP, what this client types is for its session only (or, for a signed-in person, kept
      // for them by the service): nothing to remember on this computer.
      const sessionOnly = options.clientSession.isolated && !text.keptUntilSignOut;
      const outcome = await context.openUrl({
        message,
        open: async () => {
          const pageText = {
            ...text,
            offerRemember: text.offerRemember && !options.clientSession.isolated,
            sessionOnly,
          };
          if (options.secretPages && options.clientSession.person) return options.secretPages.open(pageText);
          const page = await openSecretPage(pageText);
          return { url: page.url, until: page.answer, close: page.close };
        },
        resume: (token) =>
          options.secretPages && options.clientSession.person ? options.secretPages.resume(token) : undefined,
      });
      return outcome.status === "done" ? outcome.value : undefined;
    },
    debug(message) {
      void context.log("debug", message);
    },
    onWait(waitMs, reason) {
      if (waitMs < 1000) return;
      const endsAt = Date.now() + waitMs;
      const message = () => `Waiting ${Math.ceil((endsAt - Date.now()) / 1000)} s for the ${reason}`;
      void context.log("info", message());
      void context.progress(Math.max(lastProgress, 0), message());
      // A long wait goes on reporting, so that the user sees it is alive and a client that resets its
      // timeout on progress does not give up; it stops by itself when the wait is over, and a new
      // estimate of the same wait replaces it.
      waitTicker?.stop();
      waitTicker = undefined;
      if (waitMs > WAIT_PROGRESS_EVERY_MS) {
        const ticker = every(WAIT_PROGRESS_EVERY_MS, signal, message);
        waitTicker = ticker;
        setTimeout(() => ticker.stop(), waitMs - 1000).unref();
      }
    },
  };

  /** Sends `message()` as progress every `ms` until stopped or `signal` aborts. */
  const every = (ms: number, signal: AbortSignal, message: () => string) => {
    const timer = setInterval(() => {
      if (signal.aborted) return clearInterval(timer);
      void context.progress(Math.max(lastProgress, 0), message());
    }, ms);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  };
  return context;
}
