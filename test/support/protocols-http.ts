// The protocol repository emulator over plain HTTP, for its own tests: call the API and the admin API,
// and play the browser through the OAuth authorization code flow.
import { expect } from "vitest";
import type { ProtocolsEmulator } from "../../packages/emulators/src/protocols/index.js";

/** The emulator tests check the legacy shapes unless they ask for another dialect, whatever the default. */
export const LEGACY = { dialect: "legacy" } as const;

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface ApiError {
  status_code: number;
  error_message: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
}

export interface App {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

async function reply<T>(res: Response): Promise<Reply<T>> {
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get("content-type") ?? "").includes("json")) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: body as T, text };
}

/** GET (or another method) on the tenant side, with a bearer token when given. */
export async function api<T = unknown>(
  emulator: ProtocolsEmulator,
  pathAndQuery: string,
  token?: string,
  init: RequestInit = {},
): Promise<Reply<T>> {
  const headers = new Headers(init.headers);
  if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
  return reply<T>(await fetch(`${emulator.url}${pathAndQuery}`, { ...init, headers, redirect: "manual" }));
}

export async function admin<T = unknown>(
  emulator: ProtocolsEmulator,
  method: string,
  path: string,
  body?: unknown,
  secret = emulator.adminSecret,
): Promise<Reply<T>> {
  const res = await fetch(`${emulator.url}/_admin${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return reply<T>(res);
}

export function authorizePath(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `/api/v3/oauth/authorize?${query}`;
}

export function codeRequest(app: App, state?: string): Record<string, string | undefined> {
  return { client_id: app.clientId, redirect_uri: app.redirectUri, response_type: "code", state };
}

/** The hidden CSRF ticket of a sign-in or consent form. */
export function ticketOf(html: string): string {
  const ticket = /name="ticket" value="([^"]+)"/.exec(html)?.[1];
  if (!ticket) throw new Error(`no ticket in page: ${html.slice(0, 300)}`);
  return ticket;
}

/** A tiny cookie jar: name=value pairs from Set-Cookie, sent back as one Cookie header. */
export class CookieJar {
  #cookies = new Map<string, string>();

  take(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const eq = pair.indexOf("=");
      const expired = attributes.some((a) => a.trim().toLowerCase() === "max-age=0");
      if (expired) this.#cookies.delete(pair.slice(0, eq));
      else this.#cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }

  header(): Record<string, string> {
    if (this.#cookies.size === 0) return {};
    return { cookie: [...this.#cookies].map(([name, value]) => `${name}=${value}`).join("; ") };
  }
}

/** Where a browser's redirects led: the last address, what it answered, every cookie set on the way. */
export interface Followed {
  url: string;
  status: number;
  text: string;
  setCookies: string[];
}

/**
 * Opens `url` as a browser with `jar` (cookies sent and kept) and follows its redirects, up to a page
 * that answers, or up to an address starting with `stopAt`, which is not opened (its status is that of
 * the redirect to it).
 */
export async function followRedirects(jar: CookieJar, url: string, stopAt?: string): Promise<Followed> {
  const setCookies: string[] = [];
  let address = url;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(address, { headers: jar.header(), redirect: "manual" });
    jar.take(response.headers);
    setCookies.push(...response.headers.getSetCookie());
    const location = response.headers.get("location");
    const text = await response.text();
    if (response.status < 300 || response.status >= 400 || !location) {
      return { url: address, status: response.status, text, setCookies };
    }
    address = new URL(location, address).toString();
    if (stopAt !== undefined && address.startsWith(stopAt)) {
      return { url: address, status: response.status, text, setCookies };
    }
  }
  throw new Error(`more than 10 redirects from ${url}`);
}

/** Fetch as a browser with `jar`: cookies sent and kept, redirects not followed. */
export async function browse(
  emulator: ProtocolsEmulator,
  jar: CookieJar,
  pathAndQuery: string,
  form?: Record<string, string>,
): Promise<Reply<string>> {
  const res = await fetch(`${emulator.url}${pathAndQuery}`, {
    method: form ? "POST" : "GET",
    headers: { ...jar.header(), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: form ? new URLSearchParams(form).toString() : undefined,
    redirect: "manual",
  });
  jar.take(res.headers);
  return reply<string>(res);
}

/** Approves `app` as `username` through the consent page (admin browser session) and returns the redirect. */
export async function approveAs(
  emulator: ProtocolsEmulator,
  username: string,
  app: App,
  state?: string,
): Promise<URL> {
  emulator.admin.updateSettings({ browserSessionUser: username });
  return approveConsent(emulator, new CookieJar(), authorizePath(codeRequest(app, state)));
}

/** Opens the consent page at `path` in the browser session of `jar`, approves it, and returns the redirect. */
export async function approveConsent(
  emulator: ProtocolsEmulator,
  jar: CookieJar,
  path: string,
): Promise<URL> {
  const consent = await browse(emulator, jar, path);
  expect(consent.status).toBe(200);
  const approved = await decideConsent(emulator, jar, consent.body, "approve");
  expect(approved.status).toBe(302);
  return new URL(approved.headers.get("location") ?? "");
}

/** Answers the consent page `consentBody` with `decision`, in the browser session of `jar`. */
export function decideConsent(
  emulator: ProtocolsEmulator,
  jar: CookieJar,
  consentBody: string,
  decision: "approve" | "deny",
) {
  return browse(emulator, jar, "/api/v3/oauth/authorize", { ticket: ticketOf(consentBody), decision });
}

/** The authorization code `code` of `app` exchanged at the token endpoint, `extra` fields added or replaced. */
export function exchangeCode(
  emulator: ProtocolsEmulator,
  app: App,
  code: string,
  extra: Record<string, string> = {},
) {
  return tokenRequest(emulator, {
    grant_type: "authorization_code",
    code,
    redirect_uri: app.redirectUri,
    client_id: app.clientId,
    client_secret: app.clientSecret,
    ...extra,
  });
}

/** Posts the repository's sign-in form (the page `formBody`) as `username`, in the browser session of `jar`. */
export function signInOnForm(
  emulator: ProtocolsEmulator,
  jar: CookieJar,
  formBody: string,
  username: string,
  password: string,
) {
  return browse(emulator, jar, "/api/v3/oauth/authorize", {
    action: "sign_in",
    ticket: ticketOf(formBody),
    username,
    password,
  });
}

/** A client token of a new application owned by `owner` (a username of the repository). */
export function clientTokenOf(emulator: ProtocolsEmulator, owner: string): string {
  const app = emulator.admin.createApplication({ owner, redirectUri: "http://127.0.0.1:9/cb" });
  return emulator.admin.issueClientToken(app.clientId).accessToken;
}

export async function tokenRequest(
  emulator: ProtocolsEmulator,
  params: Record<string, string>,
  opts: { json?: boolean; basic?: { id: string; secret: string } } = {},
): Promise<Reply<TokenResponse & { error?: string; error_description?: string }>> {
  const headers: Record<string, string> = {
    "content-type": opts.json ? "application/json" : "application/x-www-form-urlencoded",
  };
  if (opts.basic) {
    const pair = `${encodeURIComponent(opts.basic.id)}:${encodeURIComponent(opts.basic.secret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
  }
  const res = await fetch(`${emulator.url}/api/v3/oauth/token`, {
    method: "POST",
    headers,
    body: opts.json ? JSON.stringify(params) : new URLSearchParams(params).toString(),
  });
  return reply(res);
}

/** The whole flow: approve as `username`, exchange the code, return the tokens. */
export async function signInAs(
  emulator: ProtocolsEmulator,
  username: string,
  app: App,
): Promise<TokenResponse> {
  const redirect = await approveAs(emulator, username, app);
  const exchanged = await exchangeCode(emulator, app, redirect.searchParams.get("code") ?? "");
  expect(exchanged.status).toBe(200);
  return exchanged.body;
}

export interface Fixture {
  owner: string;
  member: string;
  /** A CLIENT_ACCESS_TOKEN of an application owned by `owner`. */
  clientToken: string;
  /** An OAUTH_ACCESS_TOKEN of `member`, who approved the owner's application. */
  oauthToken: string;
  ids: {
    ownerPublic: number;
    ownerPrivate: number;
    memberPrivate: number;
    memberSharedWithOwner: number;
    memberPublic: number;
  };
}

/**
 * Two users with one protocol of each kind, made through the admin handle so tests know exactly who
 * should see what: the owner's app gives a client token, the member signs in to it for an OAuth token.
 */
export async function seedFixture(emulator: ProtocolsEmulator): Promise<Fixture> {
  const { admin: handle } = emulator;
  handle.createUser({
    username: "lab-owner",
    name: "Lab Owner",
    affiliation: "Owner Lab",
    email: "owner@lab.example",
  });
  handle.createUser({ username: "lab-member", name: "Lab Member", affiliation: "Member Lab" });
  const app = handle.createApplication({
    owner: "lab-owner",
    redirectUri: "https://app.example/callback",
    name: "Fixture app",
  });
  const clientToken = handle.issueClientToken(app.clientId).accessToken;
  const oauthToken = (await signInAs(emulator, "lab-member", app)).access_token;
  const create = (title: string, creator: string, isPublic: boolean, extra: Record<string, unknown> = {}) =>
    handle.createProtocol({
      title,
      creator,
      public: isPublic,
      description: `About ${title}.`,
      steps: ["Prepare the bench.", { step: "Do the main thing.", section: "Procedure" }, "Clean up."],
      ...extra,
    }).id;
  return {
    owner: "lab-owner",
    member: "lab-member",
    clientToken,
    oauthToken,
    ids: {
      ownerPublic: create("Owner public quokka assay", "lab-owner", true),
      ownerPrivate: create("Owner private quokka assay", "lab-owner", false),
      memberPrivate: create("Member private quokka assay", "lab-member", false),
      memberSharedWithOwner: create("Member shared quokka assay", "lab-member", false, {
        sharedWith: ["lab-owner"],
      }),
      memberPublic: create("Member public quokka assay", "lab-member", true),
    },
  };
}

export interface ListBody {
  items: {
    id: number;
    title: string;
    uri: string;
    public: boolean;
    creator: { username: string };
    published_on: number | null;
    created_on: number;
  }[];
  pagination: { current_page: number; total_pages: number; total_results: number; page_size: number };
  status_code: number;
}

/** GET /api/v3/protocols with `query`, expecting 200. */
export async function list(emulator: ProtocolsEmulator, token: string, query: string): Promise<ListBody> {
  const reply = await api<ListBody>(emulator, `/api/v3/protocols?${query}`, token);
  expect(reply.status, `${query}: ${reply.text.slice(0, 200)}`).toBe(200);
  return reply.body;
}
