// ToolContext: what a tool handler may do besides its remote calls: report progress, log to the
// client, read one of the server's resources, and know which server it runs in.
import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { LoggingLevel, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { RequestScope } from "./http/remote-client.js";
import { openSecretPage, type SecretAnswer, type SecretPageText } from "./secret-page.js";

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
   * True over HTTP, where one process serves many clients: a credential a client supplies belongs to
   * its session alone, in memory, never stored, never used for or seen by another client. Over stdio
   * the one client is the user who started the server, and what it supplies may be kept for them.
   */
  readonly isolated: boolean;
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
   * Asks the client to open `url` for the user (URL-mode elicitation), then waits for `until`, which
   * something outside the client settles once the user is done there (a form posted to a local page,
   * a redirect reaching a local listener), and tells the client that the elicitation is complete.
   * `until` rejecting rejects; the caller closes whatever it opened.
   */
  openUrl<T>(request: OpenUrlRequest<T>): Promise<OpenUrlOutcome<T>>;
}

export interface OpenUrlRequest<T> {
  /** Why the user should open the page. */
  message: string;
  url: string;
  until: Promise<T>;
  /** How long the user has, from the request to the end (default 10 minutes). */
  timeoutMs?: number;
  /** The progress message sent now and then while waiting, which also keeps the call alive. */
  waitingMessage?: string;
}

export type OpenUrlOutcome<T> =
  | { status: "done"; value: T }
  | { status: "unsupported" | "declined" | "timeout" };

/** How long a page opened for the user waits for them by default. */
const OPEN_URL_TIMEOUT_MS = 10 * 60 * 1000;
/** How often a long wait reports progress (clients may reset their request timeout on progress). */
const WAIT_PROGRESS_EVERY_MS = 5_000;

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

/** The minimum level a client asked for with logging/setLevel (info until it asks). */
export class LogLevelState {
  level: LoggingLevel = "info";
  allows(level: LoggingLevel): boolean {
    return LEVEL_ORDER.indexOf(level) >= LEVEL_ORDER.indexOf(this.level);
  }
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export function createToolContext(options: {
  serverName: string;
  clientSession: ClientSession;
  server: Server;
  extra: Extra;
  logLevel: LogLevelState;
  readResource: (uri: string) => Promise<string>;
}): ToolContext {
  const { serverName, extra, logLevel } = options;
  const progressToken = extra._meta?.progressToken;
  let lastProgress = -1;

  // Notifications go out tied to the request, so that over HTTP they travel on the call's own stream.
  const notify = async (notification: ServerNotification) => {
    if (extra.signal.aborted) return;
    try {
      await extra.sendNotification(notification);
    } catch {
      // A client that went away cannot hear it; the call itself decides what happens next.
    }
  };

  let waitTicker: { stop(): void } | undefined;
  const context: ToolContext = {
    serverName,
    clientSession: options.clientSession,
    signal: extra.signal,
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
      if (!logLevel.allows(level)) return;
      await notify({
        method: "notifications/message",
        params: { level, logger: serverName, data: data ? { message, ...data } : message },
      });
    },
    readResource: options.readResource,
    canOpenUrls() {
      return Boolean(options.server.getClientCapabilities()?.elicitation?.url);
    },
    async openUrl<T>({
      message,
      url,
      until,
      timeoutMs = OPEN_URL_TIMEOUT_MS,
      waitingMessage,
    }: OpenUrlRequest<T>): Promise<OpenUrlOutcome<T>> {
      if (!context.canOpenUrls()) return { status: "unsupported" };
      until.catch(() => undefined); // it may settle before it is awaited
      const elicitationId = randomUUID();
      const timeout = AbortSignal.timeout(timeoutMs);
      const stop = AbortSignal.any([extra.signal, timeout]);
      const stopped = new Promise<never>((_, reject) => {
        const onStop = () => reject(stop.reason);
        if (stop.aborted) onStop();
        else stop.addEventListener("abort", onStop, { once: true });
      });
      stopped.catch(() => undefined);
      try {
        const consent = await options.server.elicitInput(
          { mode: "url", message, url, elicitationId },
          { relatedRequestId: extra.requestId, signal: stop, timeout: timeoutMs },
        );
        if (consent.action !== "accept") return { status: "declined" };
        const ticker = waitingMessage ? every(WAIT_PROGRESS_EVERY_MS, stop, () => waitingMessage) : undefined;
        let value: T;
        try {
          value = await Promise.race([until, stopped]);
        } finally {
          ticker?.stop();
        }
        await options.server
          .createElicitationCompletionNotifier(elicitationId, { relatedRequestId: extra.requestId })()
          .catch(() => undefined);
        return { status: "done", value };
      } catch (error) {
        if (timeout.aborted && !extra.signal.aborted) return { status: "timeout" };
        throw error;
      }
    },
    async askForSecret({ message, ...text }) {
      if (!context.canOpenUrls()) return undefined;
      // Over HTTP, what this client types is for its session only: nothing to remember.
      const sessionOnly = options.clientSession.isolated;
      const page = await openSecretPage({
        ...text,
        offerRemember: text.offerRemember && !sessionOnly,
        sessionOnly,
      });
      try {
        const outcome = await context.openUrl({ message, url: page.url, until: page.answer });
        return outcome.status === "done" ? outcome.value : undefined;
      } finally {
        page.close();
      }
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
        const ticker = every(WAIT_PROGRESS_EVERY_MS, extra.signal, message);
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
