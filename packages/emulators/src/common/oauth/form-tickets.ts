// CSRF protection for the forms of /authorize (sign-in, consent): each form carries a single-use ticket
// bound to the browser it was shown to (a cookie's value) and holding the checked authorization
// request, so a forged POST from another site can neither sign in, approve, nor swap the request.
import { randomBytes } from "node:crypto";
import type { Clock } from "../clock.js";

const TICKET_MS = 15 * 60_000;
const MAX_TICKETS = 10_000;

export class FormTickets<R> {
  readonly #tickets = new Map<string, { request: R; binding: string; expiresAt: number }>();

  constructor(private readonly clock: Clock) {}

  /** A ticket for a form shown to the browser `binding` names. */
  issue(request: R, binding: string): string {
    if (this.#tickets.size >= MAX_TICKETS) this.#dropExpired();
    const ticket = randomBytes(24).toString("base64url");
    this.#tickets.set(ticket, { request, binding, expiresAt: this.clock.now() + TICKET_MS });
    return ticket;
  }

  /** The request behind a ticket issued to this binding, once; undefined when forged, reused or stale. */
  take(ticket: string | undefined, binding: string | undefined): R | undefined {
    const entry = ticket === undefined ? undefined : this.#tickets.get(ticket);
    if (!ticket || !entry || binding === undefined || entry.binding !== binding) return undefined;
    this.#tickets.delete(ticket);
    return this.clock.now() < entry.expiresAt ? entry.request : undefined;
  }

  #dropExpired(): void {
    const now = this.clock.now();
    for (const [ticket, entry] of this.#tickets) if (now >= entry.expiresAt) this.#tickets.delete(ticket);
  }
}
