// Team mode: the sign-ins people started from their agents and whose browser has not come back yet,
// kept in the shared state (sealed like every secret) so that the callback may land on any replica.
// Each is named by a digest of its OAuth state: the state itself is the secret the browser brings
// back; the record holds the person it is for, the PKCE verifier, and expires with the sign-in. A
// callback takes the record away (compare-and-set), so a replayed or forged state finds nothing; the
// outcome is kept under the same digest for the waiting tool call, on whichever replica it waits.
// The person's browser reaches the repository only through this server's connect link, which first
// signs the browser in (core's BrowserSignIn) and checks it is the person who started the sign-in.
// One person holds a few sign-ins in progress at most (their clients, each signing in): a new one
// ends their own oldest, never anyone else's, so no one fills the store by starting sign-ins.
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { BrowserSignIn } from "../../../core/pages/browser-sign-in.js";
import type { SharedState } from "../../../core/state/shared-state.js";
import { personDigest } from "./shared-token-store.js";

export interface PendingSignIn {
  /** The person's subject (`<issuer> <sub>`), in the sealed value only, never in a name. */
  subject: string;
  /** Their email, when their token has one: the connect link says whose sign-in it is. */
  email?: string;
  codeVerifier: string;
}

export type SignInOutcome =
  | { status: "signed_in"; username: string | null; name: string | null }
  | { status: "failed"; why: string };

const pendingSchema = z.object({
  subject: z.string().min(1),
  email: z.string().optional(),
  codeVerifier: z.string().min(1),
});
const outcomeSchema = z.union([
  z.object({ status: z.literal("signed_in"), username: z.string().nullable(), name: z.string().nullable() }),
  z.object({ status: z.literal("failed"), why: z.string() }),
]);

/** How long a finished sign-in's outcome stays for its waiting call to read. */
const OUTCOME_TTL_MS = 10 * 60 * 1000;
/** The most sign-ins one person has in progress at once: a new one ends their own oldest. */
export const MAX_SIGN_INS_PER_PERSON = 4;
/** Tries at the compare-and-set of a person's list of sign-ins before giving up on keeping it exact. */
const LIST_TRIES = 5;

export class PendingSignIns {
  constructor(
    private readonly state: SharedState,
    /** How long the browser has to come back. */
    readonly ttlMs: number,
    /** Who is at the browser (MCP_AUTH_CLIENT_ID); without it no sign-in starts. */
    readonly browser: BrowserSignIn | undefined,
    /** Keys the digest that names a person's list of sign-ins (protocolsPersonNamesKey). */
    private readonly namesKey: Buffer = randomBytes(32),
  ) {}

  /** Records a new sign-in for `subject`; returns its OAuth state and PKCE verifier. */
  async begin(subject: string, email?: string): Promise<{ state: string; codeVerifier: string }> {
    const state = randomBytes(32).toString("base64url");
    const codeVerifier = randomBytes(32).toString("base64url");
    const record: PendingSignIn = { subject, email, codeVerifier };
    await this.state.secrets.write(pendingName(state), JSON.stringify(record), {
      ttlMs: this.ttlMs,
      ifVersion: null,
    });
    for (const ended of await this.listed(subject, digestOf(state))) {
      if (await this.state.secrets.remove(pendingNameOf(ended))) {
        await this.state.secrets.write(outcomeNameOf(ended), JSON.stringify(REPLACED), {
          ttlMs: OUTCOME_TTL_MS,
        });
      }
    }
    return { state, codeVerifier };
  }

  /**
   * Adds the sign-in `digest` to the person's list of sign-ins in progress; answers those that must
   * end for it (their oldest beyond the cap). Ended and expired ones leave the list.
   */
  private async listed(subject: string, digest: string): Promise<string[]> {
    const name = `protocols:pending-of:${personDigest(this.namesKey, subject)}`;
    for (let attempt = 0; attempt < LIST_TRIES; attempt++) {
      const stored = await this.state.secrets.read(name);
      const listed = parseList(stored?.value);
      const live: string[] = [];
      for (const other of listed) if (await this.state.secrets.read(pendingNameOf(other))) live.push(other);
      live.push(digest);
      const ended = live.slice(0, Math.max(0, live.length - MAX_SIGN_INS_PER_PERSON));
      const kept = live.slice(ended.length);
      const written = await this.state.secrets.write(name, JSON.stringify(kept), {
        ttlMs: this.ttlMs,
        ifVersion: stored?.version ?? null,
      });
      if (written) return ended;
    }
    return [];
  }

  /** The sign-in `state` belongs to, left in place (the connect link's look); else undefined. */
  async peek(state: string): Promise<PendingSignIn | undefined> {
    const stored = await this.state.secrets.read(pendingName(state));
    return stored ? parsePending(stored.value) : undefined;
  }

  /** The sign-in `state` belongs to, taken away so that no other callback can use it; else undefined. */
  async take(state: string): Promise<PendingSignIn | undefined> {
    const stored = await this.state.secrets.read(pendingName(state));
    if (!stored) return undefined;
    if (!(await this.state.secrets.remove(pendingName(state), stored.version))) return undefined;
    return parsePending(stored.value);
  }

  async settle(state: string, outcome: SignInOutcome): Promise<void> {
    await this.state.secrets.write(outcomeName(state), JSON.stringify(outcome), { ttlMs: OUTCOME_TTL_MS });
  }

  /** The outcome of the sign-in `state`, once its callback came (and only for the one who holds `state`). */
  async outcome(state: string): Promise<SignInOutcome | undefined> {
    const stored = await this.state.secrets.read(outcomeName(state));
    if (!stored) return undefined;
    try {
      const parsed = outcomeSchema.safeParse(JSON.parse(stored.value));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** Forgets a sign-in that will not be waited for any more. */
  async drop(state: string): Promise<void> {
    await this.state.secrets.remove(pendingName(state));
    await this.state.secrets.remove(outcomeName(state));
  }
}

function parsePending(value: string): PendingSignIn | undefined {
  try {
    const parsed = pendingSchema.safeParse(JSON.parse(value));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function digestOf(state: string): string {
  return createHash("sha256").update(state).digest("hex").slice(0, 32);
}

function parseList(value: string | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(value ?? "[]");
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

const REPLACED: SignInOutcome = {
  status: "failed",
  why: `A newer sign-in of yours replaced this one (at most ${MAX_SIGN_INS_PER_PERSON} are in progress at once): open the newest link.`,
};

const pendingNameOf = (digest: string) => `protocols:pending:${digest}`;
const outcomeNameOf = (digest: string) => `protocols:pending:${digest}:outcome`;
const pendingName = (state: string) => pendingNameOf(digestOf(state));
const outcomeName = (state: string) => outcomeNameOf(digestOf(state));
