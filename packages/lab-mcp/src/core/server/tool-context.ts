// The ToolContext of one call (the contract is core/context.ts): progress and logs tied to the request,
// so that over HTTP they travel on the call's own stream; asks through a page in the client's era;
// waits reported while they last.
import {
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type ServerContext,
  type ServerNotification,
} from "@modelcontextprotocol/server";
import type { ClientSession } from "../caller.js";
import type { ToolContext } from "../context.js";
import type { PublicSecretPages } from "../pages/public-secret-page.js";
import { openSecretPage } from "../pages/secret-page.js";
import {
  type AskRound,
  askForUrl,
  type OpenUrlOutcome,
  type OpenUrlRequest,
  WAIT_PROGRESS_EVERY_MS,
} from "../pages/url-ask.js";

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
  const envelope = request.mcpReq.envelope as Record<string, unknown> | undefined;
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
      // 2026: the SDK drops it when the request names no level; known here, no promise is made for it.
      if (!options.sessionLogLevel && envelope?.[LOG_LEVEL_META_KEY] === undefined) return;
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
          const { person } = options.clientSession;
          if (options.secretPages && person) return options.secretPages.open(pageText, person);
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
