// Bringing a page to the user through the client, as a multi-round-trip request: the first round
// opens the page and answers "input required" (a URL-mode elicitation) with a signed requestState
// naming it; the client shows the URL and retries; the retry waits for what the user did there.
// 2026-07-28 clients do the retry themselves; for 2025-11-25 clients the SDK's legacy shim sends them
// a real URL elicitation and re-enters the handler, so one code path serves both eras.
import { randomUUID } from "node:crypto";
import {
  type InputRequiredResult,
  inputRequired,
  inputResponse,
  type ServerNotification,
} from "@modelcontextprotocol/server";
import type { OpenedPage, PendingAsks } from "./pending-asks.js";

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

/** What the signed requestState of an ask holds: which page, opened for whom. Nothing secret. */
export interface AskState {
  ask: string;
  caller: string;
  /** The 2025 era's elicitation id, for the completion notification. */
  elicitationId?: string;
  /** A page any replica can wait for (OpenedPage.resumeToken), and until when (epoch ms). */
  page?: string;
  deadline?: number;
}

/** One request's view of its rounds. */
export interface AskRound {
  /** Who is asking (ClientSession.caller); an ask opened for another caller is never resumed. */
  caller: string;
  /** Whose quota of open pages the ask counts against: the signed-in person (subject), else the caller. */
  owner: string;
  /** The verified requestState the client echoed, when this is a retry. */
  state: AskState | undefined;
  /** The answers the client sent with the retry. */
  inputResponses: Record<string, unknown> | undefined;
  pending: PendingAsks;
  /** Signs a requestState (the SDK's HMAC codec). */
  mint(state: AskState): Promise<string>;
  /**
   * A 2025-11-25 client (served by the SDK's legacy shim), which is told when the page is done
   * (notifications/elicitation/complete, gone from the 2026-07-28 revision).
   */
  legacy: boolean;
}

/**
 * Thrown by a handler's first round to answer "input required"; the server's tools/call handler
 * returns it as the result instead of treating it as a failure.
 */
export class InputRequiredSignal extends Error {
  constructor(readonly result: InputRequiredResult) {
    super("input required");
    this.name = "InputRequiredSignal";
  }
}

/** The key of the URL request in inputRequests / inputResponses. */
const ASK_KEY = "open_page";
/** How long a page opened for the user waits for them by default. */
const OPEN_URL_TIMEOUT_MS = 10 * 60 * 1000;
/** How often a long wait reports progress (clients may reset their request timeout on progress). */
export const WAIT_PROGRESS_EVERY_MS = 5_000;

export async function askForUrl<T>(
  ask: OpenUrlRequest<T>,
  scope: {
    round: AskRound;
    signal: AbortSignal;
    notify(notification: ServerNotification): Promise<void>;
    every(ms: number, stop: AbortSignal, message: () => string): { stop(): void };
  },
): Promise<OpenUrlOutcome<T>> {
  const { round } = scope;
  const timeoutMs = ask.timeoutMs ?? OPEN_URL_TIMEOUT_MS;
  const askId = round.state?.caller === round.caller ? round.state.ask : undefined;
  const resumed =
    askId === undefined
      ? undefined
      : (round.pending.get<T>(askId, round.caller) ?? resumeElsewhere(ask, round.state));
  if (askId === undefined || !resumed) {
    const page = await ask.open();
    const id = round.pending.add(round.caller, page, timeoutMs, round.owner);
    const request = inputRequired.elicitUrl({ message: ask.message, url: page.url });
    // The 2025 era identifies a URL elicitation, so that its completion can be told.
    const elicitationId = round.legacy ? randomUUID() : undefined;
    if (elicitationId) Object.assign(request.params ?? {}, { elicitationId });
    throw new InputRequiredSignal(
      inputRequired({
        inputRequests: { [ASK_KEY]: request },
        requestState: await round.mint({
          ask: id,
          caller: round.caller,
          elicitationId,
          ...(page.resumeToken ? { page: page.resumeToken, deadline: Date.now() + timeoutMs } : {}),
        }),
      }),
    );
  }
  try {
    const answer = inputResponse(round.inputResponses, ASK_KEY);
    if (answer.kind !== "elicit" || answer.action !== "accept") return { status: "declined" };
    const remainingMs = Math.max(0, resumed.deadline - Date.now());
    const timeout = AbortSignal.timeout(remainingMs);
    const stop = AbortSignal.any([scope.signal, timeout]);
    const ticker = ask.waitingMessage
      ? scope.every(WAIT_PROGRESS_EVERY_MS, stop, () => ask.waitingMessage as string)
      : undefined;
    try {
      const value = await untilOrAbort(resumed.page.until, stop);
      const elicitationId = round.state?.elicitationId;
      if (elicitationId) {
        await scope
          .notify({ method: "notifications/elicitation/complete", params: { elicitationId } })
          .catch(() => undefined);
      }
      return { status: "done", value };
    } catch (error) {
      if (timeout.aborted && !scope.signal.aborted) return { status: "timeout" };
      throw error;
    } finally {
      ticker?.stop();
    }
  } finally {
    round.pending.finish(askId);
  }
}

/**
 * A page another replica opened (the retry landed elsewhere behind the load balancer), when the ask can
 * wait for it from here: its answer comes through the shared state.
 */
function resumeElsewhere<T>(
  ask: OpenUrlRequest<T>,
  state: AskState | undefined,
): { page: OpenedPage<T>; deadline: number } | undefined {
  if (!state?.page || !ask.resume || !state.deadline || state.deadline <= Date.now()) return undefined;
  const page = ask.resume(state.page);
  return page ? { page, deadline: state.deadline } : undefined;
}

function untilOrAbort<T>(until: Promise<T>, stop: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onStop = () => reject(stop.reason);
    if (stop.aborted) return onStop();
    stop.addEventListener("abort", onStop, { once: true });
    until.then(resolve, reject).finally(() => stop.removeEventListener("abort", onStop));
  });
}
