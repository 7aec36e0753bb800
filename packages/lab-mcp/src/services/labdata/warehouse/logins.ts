// Each person's warehouse login: minted by the platform (POST /warehouse-credentials) with the person's
// own platform credential, so that it authenticates as them and the warehouse shows them their rows;
// kept in the shared state (sealed with MCP_STATE_KEY in Redis, under a name keyed by an HMAC, so that
// every replica reuses it) until shortly before it expires, and never shown or logged.
import { createHmac } from "node:crypto";
import { z } from "zod";
import type { SecretStore } from "../../../core/state/shared-state.js";

/** How long a minted login lives: under the platform's limit (3600 s), an hour less a few minutes. */
export const LOGIN_SECONDS = 3300;
/** A login this close to its end is not used for a new connection: a new one is minted. */
const RENEW_BEFORE_MS = 120_000;

export interface WarehouseLogin {
  username: string;
  password: string;
  /** Epoch milliseconds after which new connections are refused. */
  expiresAt: number;
}

/** A login as stored, with the version a removal compares against. */
export interface StoredLogin extends WarehouseLogin {
  version: string;
}

const storedSchema = z.object({
  username: z.string().min(1),
  password: z.string().min(1),
  expiresAt: z.number(),
});

/** The platform's answer to POST /warehouse-credentials, read leniently. */
export const mintedSchema = z.object({
  username: z.string().min(1),
  password: z.string().min(1),
  expiresAt: z.string().nullish(),
});

/** Mints a login as the caller: the platform's answer, whose expiresAt may be missing. */
export type Mint = () => Promise<z.output<typeof mintedSchema>>;

export class WarehouseLogins {
  /** A mint in flight per stored name in this process: concurrent calls of one person share it. */
  private readonly minting = new Map<string, Promise<StoredLogin>>();

  constructor(
    private readonly secrets: SecretStore,
    private readonly baseUrl: string,
    /** The key of the HMAC that names a person's login (derived from MCP_STATE_KEY). */
    private readonly nameKey: Buffer,
    private readonly now: () => number = Date.now,
  ) {}

  /** The secret's name: the platform, and an HMAC of whose credential it is (never the credential). */
  nameOf(identity: string): string {
    const digest = createHmac("sha256", this.nameKey).update(identity).digest("hex").slice(0, 32);
    return `labdata:warehouse-login:${this.baseUrl}:${digest}`;
  }

  /** The person's login: the stored one while it has time left, else a new one minted and stored. */
  async current(identity: string, mint: Mint): Promise<StoredLogin> {
    const name = this.nameOf(identity);
    const stored = await this.read(name);
    if (stored && stored.expiresAt - this.now() > RENEW_BEFORE_MS) return stored;
    return this.mintOnce(name, mint);
  }

  /**
   * The warehouse refused `stale` (it expired, or was revoked): it is dropped, unless another call
   * stored a newer one meanwhile, which is used; else one is minted.
   */
  async renew(identity: string, stale: StoredLogin, mint: Mint): Promise<StoredLogin> {
    const name = this.nameOf(identity);
    const stored = await this.read(name);
    if (stored && stored.username !== stale.username && stored.expiresAt - this.now() > RENEW_BEFORE_MS) {
      return stored;
    }
    if (stored) await this.secrets.remove(name, stored.version).catch(() => false);
    return this.mintOnce(name, mint);
  }

  /** Drops the person's login (the sign-out): the next query mints a new one. */
  forget(identity: string): Promise<boolean> {
    return this.secrets.remove(this.nameOf(identity));
  }

  private mintOnce(name: string, mint: Mint): Promise<StoredLogin> {
    const known = this.minting.get(name);
    if (known) return known;
    const minting = this.mintAndStore(name, mint).finally(() => {
      if (this.minting.get(name) === minting) this.minting.delete(name);
    });
    this.minting.set(name, minting);
    return minting;
  }

  private async mintAndStore(name: string, mint: Mint): Promise<StoredLogin> {
    const minted = await mint();
    const said = minted.expiresAt ? Date.parse(minted.expiresAt) : Number.NaN;
    // What the platform said, or (when it said nothing readable) what was asked for.
    const expiresAt = Number.isFinite(said) ? said : this.now() + LOGIN_SECONDS * 1000;
    const login = { username: minted.username, password: minted.password, expiresAt };
    const ttlMs = expiresAt - this.now() - RENEW_BEFORE_MS;
    if (ttlMs > 0) await this.secrets.write(name, JSON.stringify(login), { ttlMs });
    const stored = await this.read(name);
    return stored?.username === login.username ? stored : { ...login, version: "" };
  }

  private async read(name: string): Promise<StoredLogin | undefined> {
    const stored = await this.secrets.read(name);
    if (!stored) return undefined;
    const parsed = storedSchema.safeParse(safeJson(stored.value));
    return parsed.success ? { ...parsed.data, version: stored.version } : undefined;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
