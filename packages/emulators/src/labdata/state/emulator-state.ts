// Everything a tenant holds, with the indexes the request path needs (keys by hash, apps by client id),
// kept consistent by the few methods that add or remove credentials.
import { BlockList, isIPv4 } from "node:net";
import type { Clock } from "../../common/clock.js";
import { RateWindows } from "../../common/rate-window.js";
import { NotebookState } from "../notebook/state.js";
import { AuditLog } from "./audit-log.js";
import type { IdFactory } from "./ids.js";
import {
  type AccessToken,
  type ApiKey,
  type App,
  DEFAULT_SETTINGS,
  type DnaSequence,
  type Folder,
  type Organization,
  type Project,
  type Role,
  type Team,
  type TenantSettings,
  type User,
} from "./model.js";

export class TenantState {
  readonly users = new Map<string, User>();
  readonly apiKeys = new Map<string, ApiKey>();
  readonly apiKeysByHash = new Map<string, ApiKey>();
  readonly apps = new Map<string, App>();
  readonly appsByClientId = new Map<string, App>();
  /** By token hash. */
  readonly accessTokens = new Map<string, AccessToken>();
  readonly organizations = new Map<string, Organization>();
  readonly teams = new Map<string, Team>();
  readonly projects = new Map<string, Project>();
  readonly folders = new Map<string, Folder>();
  readonly sequences = new Map<string, DnaSequence>();
  /** userId -> resourceId (organization, team, project or folder) -> role. */
  readonly memberships = new Map<string, Map<string, Role>>();
  /** appId -> resourceId -> role. */
  readonly appGrants = new Map<string, Map<string, Role>>();
  readonly audit = new AuditLog();
  /** Serialized DNA sequences; dropped when a sequence or a user it names changes. */
  readonly sequenceJson = new Map<string, string>();
  /** Notebook entries and templates, assays, workflow tasks. */
  readonly notebook = new NotebookState();

  #settings: TenantSettings = structuredClone(DEFAULT_SETTINGS);
  #rateWindows: RateWindows | null;
  #allowlist: BlockList | null = null;

  constructor(
    readonly name: string,
    /** e.g. "https://127.0.0.1:8443/acme"; the API is under `${baseUrl}/api/v2`. */
    readonly baseUrl: string,
    private readonly clock: Clock,
  ) {
    this.#rateWindows = this.#windowsFor(this.#settings);
  }

  get settings(): TenantSettings {
    return structuredClone(this.#settings);
  }

  get rateWindows(): RateWindows | null {
    return this.#rateWindows;
  }

  /** Replaces the settings; a changed rate limit starts every caller on a fresh window. */
  applySettings(next: TenantSettings): void {
    const limitChanged = JSON.stringify(next.rateLimit) !== JSON.stringify(this.#settings.rateLimit);
    this.#settings = structuredClone(next);
    if (limitChanged) this.#rateWindows = this.#windowsFor(next);
    this.#allowlist = next.ipAllowlist.length > 0 ? allowlistOf(next.ipAllowlist) : null;
  }

  /** Whether a caller at `address` may use the API under the tenant's IP allowlist. */
  allowsAddress(address: string | undefined): boolean {
    if (!this.#allowlist) return true;
    if (!address) return false;
    const plain = address.startsWith("::ffff:") && isIPv4(address.slice(7)) ? address.slice(7) : address;
    return this.#allowlist.check(plain, isIPv4(plain) ? "ipv4" : "ipv6");
  }

  addApiKey(key: ApiKey): void {
    this.apiKeys.set(key.id, key);
    this.apiKeysByHash.set(key.hash, key);
  }

  removeApiKey(key: ApiKey): void {
    this.apiKeys.delete(key.id);
    this.apiKeysByHash.delete(key.hash);
  }

  addApp(app: App): void {
    this.apps.set(app.id, app);
    this.appsByClientId.set(app.clientId, app);
  }

  /** Ends every access token of the app, as archiving it does. */
  revokeAccessTokens(appId: string): void {
    for (const [hash, token] of this.accessTokens) if (token.appId === appId) this.accessTokens.delete(hash);
  }

  /** Forgets tokens that expired, so a long run does not keep them forever. */
  pruneAccessTokens(now: number): void {
    for (const [hash, token] of this.accessTokens) if (token.expiresAt <= now) this.accessTokens.delete(hash);
  }

  #windowsFor(settings: TenantSettings): RateWindows | null {
    const limit = settings.rateLimit;
    return limit ? new RateWindows(this.clock, limit.requests, limit.windowMs) : null;
  }
}

/** "10.0.0.0/8", "2001:db8::/32" or a single address. Throws on anything else. */
export function parseCidr(cidr: string): { address: string; prefix: number; family: "ipv4" | "ipv6" } {
  const [address = "", prefixText, extra] = cidr.split("/");
  const family = isIPv4(address) ? "ipv4" : address.includes(":") ? "ipv6" : undefined;
  const max = family === "ipv4" ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!family || extra !== undefined || !/^\d{1,3}$/.test(prefixText ?? String(max)) || prefix > max) {
    throw new RangeError(`not a CIDR: ${cidr}`);
  }
  // BlockList validates IPv6 text itself; this throws on a malformed address.
  new BlockList().addSubnet(address, prefix, family);
  return { address, prefix, family };
}

function allowlistOf(cidrs: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const { address, prefix, family } = parseCidr(cidr);
    list.addSubnet(address, prefix, family);
  }
  return list;
}

/** The whole emulator: tenants by name, one id source, one clock. */
export class EmulatorState {
  readonly tenants = new Map<string, TenantState>();

  constructor(
    readonly origin: string,
    readonly clock: Clock,
    readonly ids: IdFactory,
  ) {}
}
