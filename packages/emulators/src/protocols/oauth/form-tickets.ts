// CSRF protection for the sign-in and consent forms: each form carries a single-use ticket that is bound
// to the browser that was shown the form (its sign-in or session cookie) and holds the validated
// authorization request, so a forged POST from another site can neither sign in nor approve.
import type { Clock } from "../../common/clock.js";
import { newOpaqueId } from "../new-secrets.js";

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string | undefined;
  /** The PKCE S256 challenge, when the client sent one (RFC 7636). */
  codeChallenge?: string;
}

const TICKET_SECONDS = 15 * 60;

export class FormTickets {
  #tickets = new Map<string, { request: AuthorizationRequest; binding: string; expiresAt: number }>();

  constructor(private readonly clock: Clock) {}

  issue(request: AuthorizationRequest, binding: string): string {
    const ticket = newOpaqueId();
    this.#tickets.set(ticket, { request, binding, expiresAt: this.clock.now() + TICKET_SECONDS * 1000 });
    return ticket;
  }

  /** The request behind a ticket issued to this binding, once; undefined when forged, reused or stale. */
  take(ticket: string | undefined, binding: string): AuthorizationRequest | undefined {
    const entry = ticket === undefined ? undefined : this.#tickets.get(ticket);
    if (!ticket || !entry || entry.binding !== binding) return undefined;
    this.#tickets.delete(ticket);
    return this.clock.now() < entry.expiresAt ? entry.request : undefined;
  }
}
