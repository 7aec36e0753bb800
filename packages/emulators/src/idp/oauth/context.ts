// What every endpoint of the authorization server works with: the provider's keys and clock, its
// people, the clients it knows, what it has granted, and its settings.
import type { Clock } from "../../common/clock.js";
import type { FormTickets } from "../../common/oauth/form-tickets.js";
import type { SigningKeys } from "../keys.js";
import type { People } from "../people.js";
import type { AutoApprovals } from "./auto-approvals.js";
import type { AuthorizationRequest } from "./checked-request.js";
import type { Clients } from "./clients.js";
import type { Grants } from "./grants.js";

export interface AuthorizationServerSettings {
  accessTokenLifetimeSec: number;
  /**
   * Where the person's email is given: access tokens and introspection (many providers' are `sub`
   * only: Auth0, Okta, Entra ID), and ID tokens (only with the `email` scope at some).
   */
  emailClaims: { accessToken: boolean; idToken: boolean };
  codeLifetimeSec: number;
  refreshTokenLifetimeSec: number;
  /** scopes_supported; a request for any other scope is refused (invalid_scope). */
  scopes: readonly string[];
  /** Granted when a request names no scope. */
  defaultScope: string;
  /** The resource (aud) of a request that names none; undefined: `resource` is required. */
  defaultResource: string | undefined;
}

export interface AuthorizationServerContext {
  /** Known once the server listens. */
  issuer(): string;
  keys: SigningKeys;
  clock: Clock;
  people: People;
  clients: Clients;
  grants: Grants;
  approvals: AutoApprovals;
  tickets: FormTickets<AuthorizationRequest>;
  settings: AuthorizationServerSettings;
}
