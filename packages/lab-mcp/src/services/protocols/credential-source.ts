// Which credential the server uses: the configured client token; else, over HTTP, the sign-in the
// calling client made in its own session (kept in memory for that session alone); else the operator's
// OAuth sign-in, in the token file or, for a fleet of replicas, in the shared state (Redis), read on
// every call so that a sign-in or sign-out from a terminal counts at once; else none (PDFs of public
// protocols still work anonymously). In team mode (a person behind every call) each person's own
// sign-in, kept in the shared state under a digest of their subject, unless a client token is set
// (a service account everybody acts as).
import type { ClientSession } from "../../core/caller.js";
import type { CallScope } from "../../core/credentials/call-scope.js";
import type { CredentialSource } from "../../core/credentials/credential-source.js";
import { type CredentialLadder, climb } from "../../core/credentials/ladder.js";
import { ActionableError } from "../../core/errors.js";
import { type CodeFlow, startCodeFlow } from "./auth/code-flow.js";
import { clientTokenCredential, type ProtocolsCredential } from "./auth/credential.js";
import { OAuthSession, SessionEndedError } from "./auth/oauth-session.js";
import type { PendingSignIns } from "./auth/pending-sign-ins.js";
import { SessionTokenStore } from "./auth/session-token-store.js";
import { personDigest, protocolsPersonNamesKey, SharedTokenStore } from "./auth/shared-token-store.js";
import type { TokenEndpoint } from "./auth/token-endpoint.js";
import { type SignInStore, TokenStore } from "./auth/token-store.js";
import type { TokenResponse } from "./records/token-response.js";
import { type ProtocolsConfig, SETUP_HINT, SIGN_IN_HINT } from "./settings.js";

export class ProtocolsCredentialSource implements CredentialSource<ProtocolsCredential> {
  private readonly clientToken: ProtocolsCredential | undefined;
  /** The operator's sign-in; present when an OAuth application is configured. */
  readonly store: SignInStore | undefined;
  private session: OAuthSession | undefined;
  /** Over HTTP: the sign-in each client session made through protocols_sign_in, for it alone. */
  private readonly bySession = new WeakMap<ClientSession, OAuthSession>();
  private signingIn = false;
  /** Team mode: each person's sign-in in use on this replica, by personDigest. */
  private readonly people = new Map<string, OAuthSession>();
  private readonly personStores = new Map<string, SharedTokenStore>();

  /**
   * `shared`: where the operator's sign-in is kept instead of the token file (a fleet's shared state).
   * `personal`: where one person's own sign-in is kept (the shared state, named by their digest).
   */
  constructor(
    readonly config: ProtocolsConfig,
    private readonly endpoint: TokenEndpoint | undefined,
    shared?: (owner: { baseUrl: string; clientId: string }) => SharedTokenStore,
    private readonly personal?: (
      owner: { baseUrl: string; clientId: string },
      person: string,
    ) => SharedTokenStore,
    /** Team mode: the sign-ins people started and whose browser has not come back yet. */
    readonly pending?: PendingSignIns,
    /** The key naming people (protocolsPersonNamesKey): their sign-ins and budgets, keyed. */
    private readonly personNames: Buffer = protocolsPersonNamesKey(undefined),
  ) {
    this.clientToken = config.clientToken ? clientTokenCredential(config.clientToken) : undefined;
    const owner = config.oauth && { baseUrl: config.baseUrl, clientId: config.oauth.clientId };
    this.store = owner && (shared ? shared(owner) : new TokenStore(config.tokenFile, owner));
  }

  /**
   * The credential in use; without one, why (for a message), and whether that is simply "nobody signed
   * in" (anonymous PDFs are fine then) rather than a sign-in that stopped working.
   */
  async current(scope: CallScope): Promise<CurrentCredential> {
    return climb(this.ladder, scope);
  }

  /** What each rung of the ladder holds for this service. */
  private readonly ladder: CredentialLadder<CurrentCredential> = {
    configured: () => {
      if (this.clientToken) return { credential: this.clientToken };
      if (!this.store || !this.endpoint) {
        return { why: `No access to the protocol repository is configured. ${SETUP_HINT}.`, anonymous: true };
      }
      return undefined;
    },
    person: (_person, scope) => {
      const person = this.personOf(scope);
      if (!person) return undefined;
      return this.fromStore(
        this.personStore(person),
        () => this.people.get(person),
        (session) => {
          if (session) this.people.set(person, session);
          else this.people.delete(person);
        },
        PERSONAL_SIGN_IN_HINT,
      );
    },
    session: (_session, scope) => {
      const own = this.ownSession(scope);
      return own && { credential: own };
    },
    // The operator's sign-in (the token file, or a fleet's shared state); it always answers.
    computer: () =>
      this.fromStore(
        this.store as SignInStore,
        () => this.session,
        (session) => {
          this.session = session;
        },
      ),
  };

  /**
   * The sign-in kept in `store`, through the one OAuthSession this replica holds for it (`held`),
   * made from the store's pair the first time and told of a newer pair (or a sign-out) every call.
   */
  private async fromStore(
    store: SignInStore,
    held: () => OAuthSession | undefined,
    keep: (session: OAuthSession | undefined) => void,
    hint = SIGN_IN_HINT,
  ): Promise<CurrentCredential> {
    const endpoint = this.endpoint as TokenEndpoint;
    const before = held();
    const readAt = before?.mark;
    const stored = await store.read();
    if (stored.status !== "signed_in") {
      keep(undefined);
      const detail = stored.status === "unusable" ? ` (${stored.why})` : "";
      return {
        why: `Not signed in to the protocol repository${detail}. ${hint}, then try again.`,
        anonymous: stored.status === "none",
      };
    }
    // Concurrent first calls share the session the first of them made: one renewal per replica.
    const known = held();
    const session = known ?? new OAuthSession(stored.tokens, store, endpoint);
    keep(session);
    // A session made by another call during this read is at least as new as what this read found.
    const since = !known ? session.mark : known === before ? readAt : Number.NaN;
    if (!session.adopt(stored.tokens, since)) return { why: new SessionEndedError().message };
    // Not this call's business if it fails: tried again on the next call.
    if (session.outlived(stored.tokens)) await session.restoreShared().catch(() => undefined);
    return { credential: session };
  }

  /** Team mode with per-person sign-ins: the calling person's digest; undefined otherwise. */
  personOf(scope: CallScope): string | undefined {
    const subject = scope.clientSession?.person?.subject;
    return subject && this.personal && !this.clientToken
      ? personDigest(this.personNames, subject)
      : undefined;
  }

  /** Whether each person signs in as themselves (team mode without a shared client token). */
  get perPerson(): boolean {
    return this.personal !== undefined && !this.clientToken && this.config.oauth !== undefined;
  }

  /**
   * Where one person's sign-in is kept (by personDigest): one store per person on this replica, which
   * remembers the last read for while Redis is out of reach.
   */
  personStore(person: string): SharedTokenStore {
    const { oauth } = this.signInApp();
    if (!this.personal) throw new ActionableError("Per-person sign-ins need team mode (MCP_AUTH_ISSUER).");
    let store = this.personStores.get(person);
    if (!store) {
      store = this.personal({ baseUrl: this.config.baseUrl, clientId: oauth.clientId }, person);
      this.personStores.set(person, store);
    }
    return store;
  }

  /** Trades a sign-in's code for tokens (the callback of a person's sign-in). */
  exchangeCode(code: string, codeVerifier: string): Promise<TokenResponse> {
    return this.signInApp().endpoint.exchangeCode(code, codeVerifier);
  }

  /** Team mode: keeps a person's finished sign-in (from the callback, on any replica). */
  async completePersonalSignIn(subject: string, tokens: TokenResponse): Promise<void> {
    const person = personDigest(this.personNames, subject);
    const store = this.personStore(person);
    const stored = await store.save(tokens);
    this.people.set(person, new OAuthSession(stored, store, this.endpoint as TokenEndpoint));
  }

  /**
   * Deletes the caller's sign-in: in team mode the person's (shared state), over HTTP without a person
   * this client session's (memory), else the operator's (token file or shared state). What was removed.
   */
  async signOut(scope: CallScope): Promise<{ removed: boolean; from: SignedOutFrom }> {
    const person = this.personOf(scope);
    if (person) {
      this.people.delete(person);
      return { removed: await this.personStore(person).remove(), from: "your_sign_in" };
    }
    const session = scope.clientSession;
    if (session?.isolated) return { removed: this.bySession.delete(session), from: "session_memory" };
    if (!this.store) return { removed: false, from: "nothing_configured" };
    this.session = undefined;
    const removed = await this.store.remove();
    return { removed, from: keptIn(this.store).kind };
  }

  /** The credential for API calls; an ActionableError saying what to do when there is none. */
  async required(scope: CallScope): Promise<ProtocolsCredential> {
    const { credential, why } = await this.current(scope);
    if (!credential) throw new ActionableError(why ?? "Not signed in to the protocol repository.");
    return credential;
  }

  /**
   * Whether `credential` is the operator's (the configured client token, or the operator's sign-in)
   * used for a client over HTTP: one account for everyone, so "my" and "your" are that account's.
   */
  isShared(credential: ProtocolsCredential, scope: CallScope): boolean {
    const mine =
      credential === this.clientToken || (this.session !== undefined && credential === this.session);
    return mine && scope.clientSession?.isolated === true;
  }

  /**
   * The credential in use; undefined when nobody is signed in (public PDFs are anyone's). A sign-in
   * that stopped working is said (an ActionableError), not bypassed.
   */
  async optional(scope: CallScope): Promise<ProtocolsCredential | undefined> {
    const { credential, why, anonymous } = await this.current(scope);
    if (!credential && !anonymous)
      throw new ActionableError(why ?? "Not signed in to the protocol repository.");
    return credential;
  }

  /**
   * The repository refused the credential (401, or its own invalid-token codes) after the client tried
   * renewing it once: nothing is forgotten, since the sign-in is the user's to redo (protocols_sign_in)
   * or the operator's to fix, and the message of the refusal says so.
   */
  async refused(_scope: CallScope, _credential: ProtocolsCredential): Promise<void> {}

  /** The OAuth session, when that is the sign-in in use (for its expiry, on the profile). */
  oauthSession(scope: CallScope): OAuthSession | undefined {
    if (this.clientToken) return undefined;
    const person = this.personOf(scope);
    if (person) return this.people.get(person);
    return this.ownSession(scope) ?? this.session;
  }

  /** The sign-in the calling client made in its own session over HTTP, if any. */
  private ownSession(scope: CallScope): OAuthSession | undefined {
    const session = scope.clientSession;
    return session?.isolated ? this.bySession.get(session) : undefined;
  }

  /**
   * Starts an OAuth sign-in: the listener at the redirect URI and the authorize URL to show the user.
   * One at a time, since the redirect URI's port is fixed.
   */
  /** Throws, saying what to set, when this server has no OAuth application to sign in with. */
  assertCanSignIn(): void {
    this.signInApp();
  }

  private signInApp() {
    const { oauth } = this.config;
    const endpoint = this.endpoint;
    if (oauth && endpoint) return { oauth, endpoint };
    const using = this.clientToken
      ? " The server already uses the client token in PROTOCOLS_ACCESS_TOKEN."
      : "";
    throw new ActionableError(
      "OAuth sign-in is not configured: set PROTOCOLS_CLIENT_ID, PROTOCOLS_CLIENT_SECRET and PROTOCOLS_REDIRECT_URI " +
        `(your application on the repository) and restart the server.${using}`,
    );
  }

  async startSignIn(options: { timeoutMs?: number; onRefused?(reason: string): void }): Promise<CodeFlow> {
    const { oauth, endpoint } = this.signInApp();
    if (this.signingIn) {
      throw new ActionableError(
        "A sign-in is already waiting for the browser (one at a time, on the redirect URI's port). Finish or " +
          "close it, or try again in a few minutes.",
      );
    }
    this.signingIn = true;
    try {
      const flow = await startCodeFlow({
        baseUrl: this.config.baseUrl,
        app: oauth,
        exchange: (code, codeVerifier) => endpoint.exchangeCode(code, codeVerifier),
        ...options,
      });
      flow.tokens
        .finally(() => {
          this.signingIn = false;
        })
        .catch(() => undefined);
      return flow;
    } catch (error) {
      this.signingIn = false;
      throw error;
    }
  }

  /**
   * Keeps the tokens of a finished sign-in and makes it the one in use: in the token file (mode 0600)
   * or the shared state for everyone, or, made by a client of a server shared over HTTP, in memory for
   * its session alone. Returns where they are kept, or undefined for the session's memory.
   */
  async completeSignIn(tokens: TokenResponse, scope: CallScope): Promise<KeptIn | undefined> {
    if (!this.store || !this.endpoint || !this.config.oauth)
      throw new ActionableError("OAuth sign-in is not configured.");
    const session = scope.clientSession;
    if (session?.isolated) {
      const memory = new SessionTokenStore({
        baseUrl: this.config.baseUrl,
        clientId: this.config.oauth.clientId,
      });
      this.bySession.set(session, new OAuthSession(await memory.save(tokens), memory, this.endpoint));
      return undefined;
    }
    const stored = await this.store.save(tokens);
    this.session = new OAuthSession(stored, this.store, this.endpoint);
    return keptIn(this.store);
  }
}

/**
 * The credential in use; without one, why (for a message), and whether that is simply "nobody signed
 * in" (anonymous PDFs are fine then) rather than a sign-in that stopped working.
 */
export interface CurrentCredential {
  credential?: ProtocolsCredential;
  why?: string;
  anonymous?: boolean;
}

/** Team mode: how a person signs in (no terminal of the server's is theirs). */
const PERSONAL_SIGN_IN_HINT = "Call protocols_sign_in to sign in to the protocol repository as yourself";

/** Which sign-in protocols_sign_out removed. */
export type SignedOutFrom =
  | "your_sign_in"
  | "session_memory"
  | "token_file"
  | "shared_state"
  | "nothing_configured";

/** Where the operator's sign-in is kept, for the user: a token file, or the shared state. */
export interface KeptIn {
  kind: "token_file" | "shared_state";
  /** The file's path, or which shared state (never a secret). */
  where: string;
}

export function keptIn(store: SignInStore): KeptIn {
  return { kind: store instanceof SharedTokenStore ? "shared_state" : "token_file", where: store.where };
}
