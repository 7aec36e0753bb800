// CSRF protection for the sign-in page: its form carries a single-use ticket bound to a nonce cookie set
// when the page was shown, and holding the validated authorization request, so a forged POST from
// another site can neither approve nor swap the request.
import { randomBytes } from "node:crypto";
import type { Clock } from "../../common/clock.js";

const TICKET_MS = 15 * 60_000;
const MAX_TICKETS = 10_000;

export class SignInTickets<R = unknown> {
  readonly #tickets = new Map<string, { request: R; nonce: string; expiresAt: number }>();

  constructor(private readonly clock: Clock) {}

  /** A ticket for the form and the nonce for its browser's cookie. */
  issue(request: R): { ticket: string; nonce: string } {
    if (this.#tickets.size >= MAX_TICKETS) this.#dropExpired();
    const ticket = randomBytes(24).toString("base64url");
    const nonce = randomBytes(24).toString("base64url");
    this.#tickets.set(ticket, { request, nonce, expiresAt: this.clock.now() + TICKET_MS });
    return { ticket, nonce };
  }

  /** The request behind a ticket shown to the browser holding `nonce`, once; undefined if forged or stale. */
  take(ticket: string | undefined, nonce: string | undefined): R | undefined {
    const entry = ticket === undefined ? undefined : this.#tickets.get(ticket);
    if (!ticket || !entry || nonce === undefined || entry.nonce !== nonce) return undefined;
    this.#tickets.delete(ticket);
    return this.clock.now() < entry.expiresAt ? entry.request : undefined;
  }

  #dropExpired(): void {
    const now = this.clock.now();
    for (const [ticket, entry] of this.#tickets) if (now >= entry.expiresAt) this.#tickets.delete(ticket);
  }
}
