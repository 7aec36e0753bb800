// The operator's sign-in kept in the shared state of a fleet of replicas (Redis, encrypted at rest by
// its backend) instead of the token file: one pair for every replica. Its name is bound to the
// repository and the application (as the file's owner check), writes after a renewal are
// compare-and-set on the version read, and a lock lets one replica at a time renew it.
import { createHash } from "node:crypto";
import { describeUrl } from "../../../core/state/open.js";
import { keyedPersonName, personNamesKey } from "../../../core/state/person-names.js";
import type { Lock, SharedState } from "../../../core/state/shared-state.js";
import type { TokenResponse } from "../records/token-response.js";
import {
  pairFor,
  type SignInOwner,
  type SignInStore,
  type StoredRead,
  type StoredTokens,
  storedReadOf,
} from "./token-store.js";

/** Which shared state, in words for the user: the Redis address (never its password) and the prefix. */
export function sharedStateWhere(redisUrl: string, prefix: string): string {
  return `the shared state at ${describeUrl(redisUrl)} (prefix ${prefix})`;
}

/**
 * The secret holding the sign-in of one repository address and application: the operator's, or, in
 * team mode, one person's (`person`: a digest of their subject, never the subject itself).
 */
export function sharedSignInName(owner: SignInOwner, person?: string): string {
  const named = person
    ? `${owner.baseUrl}\n${owner.clientId}\n${person}`
    : `${owner.baseUrl}\n${owner.clientId}`;
  const digest = createHash("sha256").update(named).digest("hex");
  return `protocols:oauth:${digest.slice(0, 16)}`;
}

/** The lock a replica holds while it renews that sign-in. */
export function renewalLockName(owner: SignInOwner, person?: string): string {
  return `${sharedSignInName(owner, person)}:renewal`;
}

/** The key naming people's sign-ins, from MCP_STATE_KEY (servers and `forget` alike). */
export function protocolsPersonNamesKey(stateKey: Buffer | undefined): Buffer {
  return personNamesKey(stateKey, "protocols person names");
}

/**
 * A keyed digest naming a person (`<issuer> <sub>`) in secret names and credential ids (so in their
 * rate budgets' names too): without MCP_STATE_KEY nobody can match it against a list of subjects.
 */
export function personDigest(namesKey: Buffer, subject: string): string {
  return keyedPersonName(namesKey, subject);
}

/** A read with the version to compare-and-set against: null when nothing is stored. */
export interface VersionedRead {
  read: StoredRead;
  version: string | null;
}

export class SharedTokenStore implements SignInStore {
  private readonly name: string;
  /**
   * Names the fleet's sign-in for its rate budgets: the same on every replica and across renewals,
   * so that the replicas share one budget, as the repository counts one.
   */
  readonly credentialId: string;

  /** What the last read found, for while Redis is out of reach. */
  private lastRead: VersionedRead | undefined;

  constructor(
    private readonly state: SharedState,
    private readonly owner: SignInOwner,
    /** E.g. "the shared state at redis://10.0.0.5:6379 (prefix lab-mcp:)". */
    readonly where: string,
    /**
     * How long a renewal may hold the lock: the token request's timeout and a margin. A replica that
     * dies holding it stops the others for this long at most.
     */
    readonly renewalLockMs: number,
    /** Team mode: the person (personDigest) whose own sign-in this is; the operator's when absent. */
    readonly person?: string,
  ) {
    this.name = sharedSignInName(owner, person);
    this.credentialId = `oauth:${this.name.slice(this.name.lastIndexOf(":") + 1)}`;
  }

  async read(): Promise<StoredRead> {
    return (await this.readVersioned()).read;
  }

  async readVersioned(): Promise<VersionedRead> {
    const secret = await this.state.secrets.read(this.name);
    if (!secret) {
      // With Redis out of reach, each replica reads its own (empty) state: the fleet's sign-in as last
      // read stays in use until Redis answers again. A sign-out counts once it can be seen.
      if (this.lastRead && !(await this.state.health()).ready) return this.lastRead;
      this.lastRead = undefined;
      return { read: { status: "none" }, version: null };
    }
    let raw: unknown;
    try {
      raw = JSON.parse(secret.value);
    } catch {
      raw = null; // refused as "not in the expected form" below
    }
    const read = storedReadOf(raw, this.owner, `the sign-in in ${this.where}`);
    this.lastRead = { read, version: secret.version };
    return this.lastRead;
  }

  /** Stores a new sign-in whatever was there (a sign-in from a terminal or the tool). */
  async save(response: TokenResponse, now = Date.now()): Promise<StoredTokens> {
    const tokens = this.pairOf(response, now);
    await this.state.secrets.write(this.name, JSON.stringify(tokens));
    return tokens;
  }

  /**
   * Stores a renewed pair only if the stored one is still at `version` (null: only if none is);
   * false when another process wrote in between, whose pair then stands.
   */
  saveIf(tokens: StoredTokens, version: string | null): Promise<boolean> {
    return this.state.secrets.write(this.name, JSON.stringify(tokens), { ifVersion: version });
  }

  pairOf(response: TokenResponse, now = Date.now()): StoredTokens {
    return pairFor(response, this.owner, now);
  }

  /**
   * Deletes the sign-in for every replica; throws when the shared state cannot confirm it. The last
   * read goes first either way: a sign-out is never answered by the copy kept for an outage.
   */
  remove(): Promise<boolean> {
    this.lastRead = undefined;
    return this.state.secrets.removeConfirmed(this.name);
  }

  /** The renewal lock, or undefined while another replica holds it. */
  lockRenewal(): Promise<Lock | undefined> {
    return this.state.secrets.tryLock(renewalLockName(this.owner, this.person), this.renewalLockMs);
  }
}
