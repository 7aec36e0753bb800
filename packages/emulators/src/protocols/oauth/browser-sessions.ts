// Who is signed in at the repository's web pages: a session cookie set by the sign-in form, or else the
// admin "browser session" setting, which lets tests approve consent as a named user without a form.
import type { IncomingMessage } from "node:http";
import type { Clock } from "../../common/clock.js";
import { cookieValue, setCookie } from "../../common/cookies.js";
import { newOpaqueId } from "../new-secrets.js";

export const SESSION_COOKIE = "protocols_session";
const SESSION_SECONDS = 24 * 3600;

export class BrowserSessions {
  #sessions = new Map<string, { userId: number; expiresAt: number }>();

  constructor(private readonly clock: Clock) {}

  /** A new session for the user; returns the Set-Cookie header value. */
  signIn(userId: number): string {
    const id = newOpaqueId();
    this.#sessions.set(id, { userId, expiresAt: this.clock.now() + SESSION_SECONDS * 1000 });
    return setCookie(SESSION_COOKIE, id, SESSION_SECONDS);
  }

  /** The session id and user of the request's session cookie, if it names a live session. */
  current(req: IncomingMessage): { sessionId: string; userId: number } | undefined {
    const id = cookieValue(req, SESSION_COOKIE);
    const session = id === undefined ? undefined : this.#sessions.get(id);
    if (!id || !session) return undefined;
    if (this.clock.now() >= session.expiresAt) {
      this.#sessions.delete(id);
      return undefined;
    }
    return { sessionId: id, userId: session.userId };
  }
}
