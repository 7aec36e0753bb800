// ToolContext: what a tool handler may do besides its remote calls: report progress, log to the
// client, read one of the server's resources, and know which server it runs in.
import { randomUUID } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { LoggingLevel, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { RequestScope } from "./http/remote-client.js";
import { openSecretPage, type SecretAnswer, type SecretPageText } from "./secret-page.js";

export type ToolLogLevel = "info" | "error" | "debug";

export interface ToolContext extends RequestScope {
  readonly serverName: string;
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
}

/** How long a secret page waits for the user. */
const SECRET_PAGE_TIMEOUT_MS = 10 * 60 * 1000;

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

  const context: ToolContext = {
    serverName,
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
    async askForSecret({ message, ...text }) {
      if (!options.server.getClientCapabilities()?.elicitation?.url) return undefined;
      const page = await openSecretPage(text);
      const elicitationId = randomUUID();
      const timeout = AbortSignal.timeout(SECRET_PAGE_TIMEOUT_MS);
      const stop = AbortSignal.any([extra.signal, timeout]);
      stop.addEventListener("abort", () => page.close(), { once: true });
      try {
        const consent = await options.server.elicitInput(
          { mode: "url", message, url: page.url, elicitationId },
          { relatedRequestId: extra.requestId, signal: stop },
        );
        if (consent.action !== "accept") return undefined;
        const answer = await page.answer;
        await options.server
          .createElicitationCompletionNotifier(elicitationId, { relatedRequestId: extra.requestId })()
          .catch(() => undefined);
        return answer;
      } catch (error) {
        if (timeout.aborted) return undefined;
        throw error;
      } finally {
        page.close();
      }
    },
    debug(message) {
      void context.log("debug", message);
    },
    onWait(waitMs, reason) {
      const seconds = Math.ceil(waitMs / 1000);
      if (waitMs >= 1000) {
        void context.log("info", `Waiting ${seconds} s for the ${reason}`);
        void context.progress(Math.max(lastProgress, 0), `Waiting ${seconds} s for the ${reason}`);
      }
    },
  };
  return context;
}
