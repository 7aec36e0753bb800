// Which credential the server uses: the configured one (everyone acts as it: a service account);
// else, with token exchange, the signed-in person's token to this server exchanged at the identity
// provider for one issued for the platform (auth/token-exchange.ts); else, for a
// signed-in person (a team server, MCP_AUTH_ISSUER), their own API key from the shared state, asked
// once through a one-time page; else an API key the user asked us to remember; else one asked for now
// through a local password page. Over stdio an asked key serves the process (the one client is the
// user who started it), in memory unless the user ticks "remember", which stores it in their config
// folder with mode 0600. Over HTTP without a person an asked key belongs to the client session that
// typed it: in memory, never stored, never used for another client, and no client waits on another's
// page.
import { stat } from "node:fs/promises";
import { z } from "zod";
import type { ClientSession, Person } from "../../core/caller.js";
import type { SessionCall } from "../../core/credentials/call-scope.js";
import type { CredentialSource } from "../../core/credentials/credential-source.js";
import { type CredentialLadder, climb } from "../../core/credentials/ladder.js";
import { ActionableError } from "../../core/errors.js";
import { readJsonIfPresent, removeFile, writePrivateJson } from "../../core/start/user-config.js";
import { apiKeyCredential } from "./auth/api-key.js";
import type { LabdataCredential } from "./auth/credential.js";
import type { PersonKeys } from "./auth/person-keys.js";
import { exchangedBudgetId, type TokenExchange } from "./auth/token-exchange.js";
import { EXCHANGE_NEEDS_PERSON, SETUP_HINT } from "./settings.js";

const rememberedSchema = z.object({ baseUrl: z.string(), apiKey: z.string().min(1) });

/** Checks a credential with the platform (users/me): whose it is, or the platform's refusal. */
export type Verify = (
  credential: LabdataCredential,
  scope: SessionCall,
) => Promise<{ email?: string | null }>;

/** What labdata_sign_out removed, and what the caller's next call does. */
export interface SignOut {
  /** person_key: the person's key in the shared state; exchanged_token: the person's exchanged token; session_key: this HTTP session's; remembered_key: the stdio user's file; memory_key: the stdio user's key in memory; warehouse_login: the warehouse login minted with it. */
  removed: Array<
    "person_key" | "exchanged_token" | "session_key" | "remembered_key" | "memory_key" | "warehouse_login"
  >;
  /** ask: the next call asks for a key again; configured: everyone acts as the operator's credential; token_exchange: the person's sign-in is exchanged at the identity provider. */
  next: "ask" | "configured" | "token_exchange";
}

export class LabdataCredentialSource implements CredentialSource<LabdataCredential> {
  /** Over stdio: the key remembered or asked for, when nothing is configured. */
  private current: LabdataCredential | undefined;
  private asking: Promise<LabdataCredential> | undefined;
  /** Over HTTP: each client session's own key, asked for (or being asked for) on its own page. */
  private readonly bySession = new WeakMap<ClientSession, Promise<LabdataCredential>>();
  /**
   * A person's ask in flight in this process, by their secret's name and the caller: concurrent calls
   * of one client share one page. Another client of the same person gets a page of its own, since a
   * retry resumes only a page opened for its own caller (the signed requestState names it).
   */
  private readonly personAsks = new Map<string, Promise<LabdataCredential>>();

  constructor(
    private readonly options: {
      /** The operator's credential (a key or an app): everyone acts as it. */
      configured: LabdataCredential | undefined;
      /** LABDATA_TOKEN_EXCHANGE_AUDIENCE: each person's token is exchanged for one issued for the platform. */
      exchange: TokenExchange | undefined;
      /** Where a stdio user's key is remembered. */
      store: { file: string; baseUrl: string };
      /** Each signed-in person's own key, in the shared state. */
      personKeys: PersonKeys;
      /** Checks a key the user typed before it is used or kept (users/me, through the client). */
      verify: Verify;
    },
  ) {}

  /** The credential to use, climbing the ladder; the user is asked once when none is known. */
  required(ctx: SessionCall): Promise<LabdataCredential> {
    return climb(this.ladder(), ctx);
  }

  /** The credential when one is known without asking anyone; undefined otherwise. */
  optional(ctx: SessionCall): Promise<LabdataCredential | undefined> {
    const ladder = this.ladder();
    return climb<LabdataCredential | undefined, SessionCall>(
      {
        ...ladder,
        person: async (person) => {
          const stored = await this.options.personKeys.read(person.subject);
          return stored ? apiKeyCredential(stored.apiKey) : undefined;
        },
        ask: () => undefined,
      },
      ctx,
    );
  }

  /**
   * What each rung of the ladder holds for this service, climbed in the ladder's order: the operator's
   * (or the person's exchanged token), the person's stored key, the HTTP session's own key, this
   * computer's key, and last a page asking for one (the session's own over HTTP, the process's over stdio).
   */
  private ladder(): CredentialLadder<LabdataCredential, SessionCall> {
    const { configured, exchange, verify } = this.options;
    return {
      configured: (ctx) => {
        if (configured) return configured;
        if (!exchange) return undefined;
        // Token exchange is the operator's choice: the person's own sign-in, and nothing without one.
        const person = ctx.clientSession.person;
        if (!person) throw new ActionableError(EXCHANGE_NEEDS_PERSON);
        return exchange.credentialFor(person, this.options.personKeys.digestOf(person.subject));
      },
      person: (person, ctx) => this.forPerson(person, ctx, verify),
      // The key this HTTP session entered (or is entering: concurrent calls share its page).
      session: (session) => (session.isolated ? this.bySession.get(session) : undefined),
      // An HTTP session without a key of its own still uses this computer's when there is one.
      computer: () => this.onThisComputer(),
      ask: (ctx) => {
        // Over HTTP the key asked for is the session's alone; over stdio the process's.
        if (ctx.clientSession.isolated) return this.forSession(ctx, verify);
        // Concurrent calls wait for the same page rather than opening one each.
        this.asking ??= this.ask(ctx, verify)
          .then((credential) => {
            this.current = credential;
            return credential;
          })
          .finally(() => {
            this.asking = undefined;
          });
        return this.asking;
      },
    };
  }

  /** The stdio user's key: in memory, or remembered in their config folder. */
  private async onThisComputer(): Promise<LabdataCredential | undefined> {
    if (this.current) return this.current;
    const remembered = await this.remembered();
    if (remembered) this.current = remembered;
    return remembered;
  }

  /**
   * The platform refused `credential` (401). A person's stored key it refused is dropped for every
   * replica, so that their next call asks again; a key they stored since is left alone.
   */
  async refused(ctx: SessionCall, credential: LabdataCredential): Promise<void> {
    const person = ctx.clientSession.person;
    if (!person || this.options.configured || this.options.exchange) return;
    const keys = this.options.personKeys;
    const stored = await keys.read(person.subject).catch(() => undefined);
    if (stored && apiKeyCredential(stored.apiKey).id === credential.id) {
      await keys.remove(person.subject, stored.version).catch(() => false);
    }
  }

  /**
   * What names the caller's own credential (its budget id, else its id), when one is known, without
   * asking or any request; undefined for the operator's, which is everyone's and outlives a sign-out.
   */
  async ownIdentity(ctx: SessionCall): Promise<string | undefined> {
    const { configured, exchange, personKeys } = this.options;
    if (configured) return undefined;
    const session = ctx.clientSession;
    if (session.person && exchange) return exchangedBudgetId(personKeys.digestOf(session.person.subject));
    if (session.person) {
      const stored = await personKeys.read(session.person.subject);
      return stored ? apiKeyCredential(stored.apiKey).id : undefined;
    }
    if (session.isolated) return (await this.bySession.get(session)?.catch(() => undefined))?.id;
    return (this.current ?? (await this.remembered()))?.id;
  }

  /** Forgets the caller's own key: the person's stored one, this HTTP session's, or the stdio user's. */
  async signOut(ctx: SessionCall): Promise<SignOut> {
    const removed: SignOut["removed"] = [];
    const session = ctx.clientSession;
    const { exchange, personKeys } = this.options;
    if (session.person && exchange) {
      if (await exchange.forget(personKeys.digestOf(session.person.subject))) removed.push("exchanged_token");
    } else if (session.person) {
      if (await personKeys.remove(session.person.subject)) removed.push("person_key");
    } else if (session.isolated) {
      if (this.bySession.delete(session)) removed.push("session_key");
    } else {
      const file = this.options.store.file;
      if (await fileExists(file)) {
        await removeFile(file);
        removed.push("remembered_key");
      } else if (this.current) removed.push("memory_key");
      this.current = undefined;
    }
    const next = this.options.configured ? "configured" : exchange ? "token_exchange" : "ask";
    return { removed, next };
  }

  /** The configured credential's description, when the operator configured one. */
  get configuredDescription(): string | undefined {
    return this.options.configured?.description;
  }

  /** The person's stored key; else one asked for on a page, verified, and stored for every replica. */
  private forPerson(person: Person, ctx: SessionCall, verify: Verify): Promise<LabdataCredential> {
    const keys = this.options.personKeys;
    const name = `${keys.nameOf(person.subject)} ${ctx.clientSession.caller}`;
    const known = this.personAsks.get(name);
    if (known) return known;
    // The read is part of what concurrent calls share: a call whose read began before another call's
    // page was answered (and finished after) would otherwise open a second page.
    const asking = keys
      .read(person.subject)
      .then((stored) => (stored ? apiKeyCredential(stored.apiKey) : this.askPerson(person, ctx, verify)));
    this.personAsks.set(name, asking);
    const done = () => {
      if (this.personAsks.get(name) === asking) this.personAsks.delete(name);
    };
    asking.then(done, done);
    return asking;
  }

  private async askPerson(person: Person, ctx: SessionCall, verify: Verify): Promise<LabdataCredential> {
    const answer = await ctx.askForSecret({
      message:
        "labdata_mcp needs your own API key of the lab data platform. Open the page to enter it: it is kept " +
        "for you alone, encrypted, usable from any replica of this server, until you sign out (labdata_sign_out).",
      title: "Your lab data platform API key",
      label: `Your API key for ${this.options.store.baseUrl} (from your profile settings)`,
      offerRemember: false,
      keptUntilSignOut: true,
    });
    if (!answer) {
      throw new ActionableError(
        "No credentials for the lab data platform. Call the tool again from a client that can open a page " +
          "(URL elicitation) and enter your own API key there, or ask the server's operator",
      );
    }
    const credential = apiKeyCredential(answer.secret);
    const user = await verify(credential, ctx); // a wrong key is never stored
    // Someone else's key (typed on a page forwarded to them, or in a browser someone else signed in)
    // must not make this person act as them: the key's owner must be the person, by the email of the
    // browser's sign-in (its ID token), else of their access token; with neither, nothing is kept.
    const email = answer.senderEmail ?? person.email;
    if (!email) {
      throw new ActionableError(
        "The API key entered on the page could not be matched to you: your sign-in at the identity provider " +
          "carries no email to compare with the key's user, so it was not kept. The server's operator must let " +
          "the identity provider put the email in the ID token (scope email; see docs/deployment.md)",
      );
    }
    if (user.email?.toLowerCase() !== email.toLowerCase()) {
      throw new ActionableError(
        `The API key entered on the page belongs to another user of the lab data platform than ${email} ` +
          "(your sign-in), so it was not kept. Call the tool again and enter your own API key",
      );
    }
    await this.options.personKeys.store(person.subject, answer.secret);
    return credential;
  }

  /** The calling session's own key; its concurrent calls share one page, other sessions never see it. */
  private forSession(ctx: SessionCall, verify: Verify): Promise<LabdataCredential> {
    const session = ctx.clientSession;
    const known = this.bySession.get(session);
    if (known) return known;
    const asking = this.ask(ctx, verify);
    this.bySession.set(session, asking);
    // A page declined or a wrong key: the next call of this session asks again.
    asking.catch(() => {
      if (this.bySession.get(session) === asking) this.bySession.delete(session);
    });
    return asking;
  }

  private async remembered(): Promise<LabdataCredential | undefined> {
    const { store } = this.options;
    const parsed = rememberedSchema.safeParse(await readJsonIfPresent(store.file).catch(() => undefined));
    if (!parsed.success || parsed.data.baseUrl !== store.baseUrl) return undefined;
    return apiKeyCredential(parsed.data.apiKey);
  }

  private async ask(ctx: SessionCall, verify: Verify): Promise<LabdataCredential> {
    const sessionOnly = ctx.clientSession.isolated;
    const { store } = this.options;
    const answer = await ctx.askForSecret({
      message: "labdata_mcp needs an API key of the lab data platform. Open the page to enter it.",
      title: "Lab data platform API key",
      label: `API key for ${store.baseUrl} (from your profile settings)`,
      offerRemember: !sessionOnly,
    });
    if (!answer) throw new ActionableError(`No credentials for the lab data platform. ${SETUP_HINT}.`);
    const credential = apiKeyCredential(answer.secret);
    await verify(credential, ctx); // a wrong key is neither kept nor stored
    if (answer.remember && !sessionOnly)
      await writePrivateJson(store.file, { baseUrl: store.baseUrl, apiKey: answer.secret });
    return credential;
  }
}

async function fileExists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
