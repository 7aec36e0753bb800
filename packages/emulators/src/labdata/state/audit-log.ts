// Who did what, per tenant, as the spec attributes it: API-key calls to the key's owner, app calls to
// the app's acting (service) user together with the app, OpenID Connect calls to the matched user.
// Bounded, so a long benchmark cannot grow it without limit: the oldest entries go first.

export type AuthMethod = "api_key" | "oauth_client_credentials" | "oidc";

export interface AuditEntry {
  seq: number;
  at: string;
  method: string;
  path: string;
  status: number;
  /** e.g. "dna-sequence.read", "dna-sequence.list", "dna-sequence.create", "token.issue". */
  action: string;
  resourceId: string | null;
  authMethod: AuthMethod;
  actorUserId: string;
  actorHandle: string;
  appId: string | null;
  apiKeyId: string | null;
}

export const AUDIT_LOG_CAPACITY = 50_000;

export class AuditLog {
  #entries: AuditEntry[] = [];
  #next = 1;

  constructor(private readonly capacity = AUDIT_LOG_CAPACITY) {}

  record(entry: Omit<AuditEntry, "seq">): void {
    this.#entries.push({ seq: this.#next++, ...entry });
    // Trim in batches so a full log does not shift the array on every request.
    if (this.#entries.length > this.capacity + 1000) {
      this.#entries = this.#entries.slice(-this.capacity);
    }
  }

  /** The newest `limit` entries (all kept ones by default), oldest first. */
  entries(limit = this.capacity): AuditEntry[] {
    if (limit <= 0) return [];
    const kept = this.#entries.slice(-Math.min(limit, this.capacity));
    return kept.map((entry) => ({ ...entry }));
  }

  clear(): void {
    this.#entries = [];
  }
}
