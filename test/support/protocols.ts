// The protocol repository emulator for protocols_mcp tests (signed by the run's CA), settings for both
// sign-in ways with the token file and downloads in a fresh temp folder, and a test that plays the
// user's browser through the repository's sign-in pages.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import type { ApplicationInfo } from "../../packages/emulators/src/protocols/index.js";
import type { SharedState } from "../../packages/lab-mcp/src/core/state/shared-state.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { type Connected, connectInMemory, ROOT } from "./clients.js";
import type { TestProtocols as TestEmulator } from "./emulator.js";
import { freePort } from "./ports.js";
import { CookieJar, followRedirects } from "./protocols-http.js";

/** An OAuth application of `owner` whose redirect URI is a free loopback port of this machine. */
export async function loopbackApp(emulator: TestEmulator, owner = "ada-okafor"): Promise<ApplicationInfo> {
  const redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
  return emulator.admin.createApplication({ owner, redirectUri, name: "lab-mcp tests" });
}

/** An application whose redirect URI is http://localhost:<a port free on both loopback addresses>. */
export async function localhostApp(emulator: TestEmulator): Promise<ApplicationInfo> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = Number(new URL((await loopbackApp(emulator)).redirectUri).port);
    const probe = createServer();
    const free = await new Promise<boolean>((resolve) => {
      probe.once("error", () => resolve(false));
      probe.listen(port, "::1", () => probe.close(() => resolve(true)));
    });
    if (free) {
      return emulator.admin.createApplication({
        owner: "ada-okafor",
        redirectUri: `http://localhost:${port}/callback`,
        name: "lab-mcp tests (localhost)",
      });
    }
  }
  throw new Error("no port free on both 127.0.0.1 and ::1");
}

/** Another process listening on host:port, as a local program lying in wait for the sign-in would. */
export async function holdPortInAnotherProcess(host: string, port: number): Promise<ChildProcess> {
  const script =
    `require("node:http").createServer((q, s) => s.end("not lab-mcp"))` +
    `.listen(${port}, ${JSON.stringify(host)}, () => console.log("listening"));` +
    "setTimeout(() => process.exit(0), 30000);";
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the port holder exited (${code})`)));
  });
  return child;
}

/** A fresh folder standing for the user's home: config folder, token file and downloads. */
export function tempHome() {
  const dir = mkdtempSync(join(tmpdir(), "protocols-home-"));
  return {
    dir,
    xdgConfig: join(dir, "config"),
    /** Where the default token file lands with XDG_CONFIG_HOME = xdgConfig. */
    defaultTokenFile: join(dir, "config", "lab-mcp", "protocols-tokens.json"),
    tokenFile: join(dir, "tokens", "protocols-tokens.json"),
    downloads: join(dir, "downloads"),
  };
}

export function clientTokenEnv(emulator: TestEmulator, extra: Record<string, string> = {}) {
  return {
    MCP_TOOLSETS: "all",
    PROTOCOLS_BASE_URL: emulator.url,
    PROTOCOLS_ACCESS_TOKEN: emulator.demo.clientAccessToken,
    PROTOCOLS_DOWNLOAD_DIR: tempHome().downloads,
    ...extra,
  };
}

export function oauthEnv(
  emulator: TestEmulator,
  app: ApplicationInfo,
  home = tempHome(),
  extra: Record<string, string> = {},
) {
  return {
    MCP_TOOLSETS: "all",
    PROTOCOLS_BASE_URL: emulator.url,
    PROTOCOLS_CLIENT_ID: app.clientId,
    PROTOCOLS_CLIENT_SECRET: app.clientSecret,
    PROTOCOLS_REDIRECT_URI: app.redirectUri,
    PROTOCOLS_TOKEN_FILE: home.tokenFile,
    PROTOCOLS_DOWNLOAD_DIR: home.downloads,
    ...extra,
  };
}

function ticketOf(html: string): string {
  const ticket = /name="ticket" value="([^"]+)"/.exec(html)?.[1];
  if (!ticket) throw new Error(`no form ticket on the page: ${html.slice(0, 300)}`);
  return ticket;
}

export interface BrowserVisit {
  /** The last page the repository showed (the consent page, or an error page). */
  repositoryPage: string;
  repositoryStatus: number;
  /** Where the repository sent the browser back to, if it did. */
  redirect?: URL;
  /** A page of the team server's connect link that sent the browser nowhere (a refusal), and its status. */
  serverPage?: string;
  serverStatus?: number;
  /** The page our listener answered the redirect with. */
  listenerStatus?: number;
  listenerPage?: string;
}

/**
 * Plays the user's browser: opens the authorize URL, signs in on the form as `user` (or, with
 * `password` left out, counts as signed in through the emulator's browser-session setting), presses
 * Approve or Deny, and follows the redirect to our listener.
 */
export async function playBrowser(
  emulator: TestEmulator,
  authorizeUrl: string,
  options: { user: string; password?: string; decision?: "approve" | "deny"; mangleState?: boolean },
): Promise<BrowserVisit> {
  const jar = new CookieJar();
  const open = async (url: string, form?: Record<string, string>) => {
    const response = await fetch(url, {
      method: form ? "POST" : "GET",
      headers: { ...jar.header(), ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
      redirect: "manual",
    });
    jar.take(response.headers);
    return {
      status: response.status,
      location: response.headers.get("location"),
      text: await response.text(),
    };
  };
  const authorizeEndpoint = new URL("/api/v3/oauth/authorize", emulator.url).toString();
  if (options.password === undefined) emulator.admin.updateSettings({ browserSessionUser: options.user });
  else emulator.admin.updateSettings({ browserSessionUser: null });
  // A team server's connect link: the browser signs in at the identity provider (auto-approved by the
  // test) and comes back; only then does the server send it on to the repository.
  let address = authorizeUrl;
  if (!address.startsWith(emulator.url)) {
    const step = await followRedirects(jar, address, emulator.url);
    if (!step.url.startsWith(emulator.url)) {
      return { repositoryPage: "", repositoryStatus: 0, serverPage: step.text, serverStatus: step.status };
    }
    address = step.url;
  }
  let page = await open(address);
  if (page.status === 200 && options.password !== undefined) {
    expect(page.text).toContain("Sign in to continue");
    const signedIn = await open(authorizeEndpoint, {
      action: "sign_in",
      ticket: ticketOf(page.text),
      username: options.user,
      password: options.password,
    });
    expect(signedIn.status).toBe(303);
    page = await open(new URL(signedIn.location ?? "", emulator.url).toString());
  }
  const visit: BrowserVisit = { repositoryPage: page.text, repositoryStatus: page.status };
  if (page.status !== 200) return visit;
  expect(page.text).toContain("wants to access your account");
  const decided = await open(authorizeEndpoint, {
    ticket: ticketOf(page.text),
    decision: options.decision ?? "approve",
  });
  if (decided.status !== 302 || !decided.location) return visit;
  visit.redirect = new URL(decided.location);
  if (options.mangleState) visit.redirect.searchParams.set("state", "not-the-state-of-this-sign-in");
  // Back with the browser's cookies, as a browser comes back.
  const back = await open(visit.redirect.toString());
  visit.listenerStatus = back.status;
  visit.listenerPage = back.text;
  return visit;
}

export function passwordOf(emulator: TestEmulator, username: string): string {
  const user = emulator.demo.users.find((candidate) => candidate.username === username);
  if (!user) throw new Error(`no demo user ${username}`);
  return user.password;
}

/** What a client heard during a session: log lines and progress messages. */
export interface Heard {
  logs: string[];
  progress: string[];
  elicitations: Array<{ url: string; message: string; elicitationId: string }>;
  completed: string[];
  visits: BrowserVisit[];
}

/**
 * An in-memory client of protocols_mcp that can open URLs: when the server asks it to open the sign-in
 * page, the "user" does so in `user`'s browser and approves.
 */
export async function connectWithBrowser(
  emulator: TestEmulator,
  env: Record<string, string>,
  user = "mei-chen",
  state?: SharedState,
): Promise<Connected & { heard: Heard; client: Client }> {
  const connection = await connectInMemory(protocolsService, env, { elicitation: { url: {} } }, { state });
  const heard: Heard = { logs: [], progress: [], elicitations: [], completed: [], visits: [] };
  connection.client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const params = request.params as { mode?: string; url: string; message: string; elicitationId: string };
    expect(params.mode).toBe("url");
    heard.elicitations.push({
      url: params.url,
      message: params.message,
      elicitationId: params.elicitationId,
    });
    setTimeout(() => {
      void playBrowser(emulator, params.url, { user }).then((visit) => heard.visits.push(visit));
    }, 5);
    return { action: "accept" };
  });
  connection.client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    heard.completed.push(notification.params.elicitationId);
  });
  connection.client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    heard.logs.push(JSON.stringify(notification.params.data));
  });
  return { ...connection, heard };
}

/** How many requests the emulator served whose path starts with `prefix`. */
export function servedStartingWith(emulator: TestEmulator, prefix: string): number {
  return emulator.requests.count(prefix);
}

/** Files of the project tree (node_modules and .git left out) that contain any of `secrets`. */
export function filesContaining(secrets: string[], root = ROOT): string[] {
  const wanted = secrets.filter((secret) => secret.length >= 8);
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 12) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === ".git") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, depth + 1);
      else if (entry.isFile() && statSync(path).size < 20 * 1024 * 1024) {
        const text = readFileSync(path, "latin1");
        if (wanted.some((secret) => text.includes(secret))) found.push(path);
      }
    }
  };
  walk(root, 0);
  return found;
}

/** The tokens in a token file. */
export function tokensIn(file: string): { access_token: string; refresh_token: string; expires_at: number } {
  return JSON.parse(readFileSync(file, "utf8"));
}

/** A connection whose progress messages `call` records. */
export function listening(connection: Connected): Connected & { heard: Heard } {
  return { ...connection, heard: { logs: [], progress: [], elicitations: [], completed: [], visits: [] } };
}

/** The first `count` public protocols, most used first, straight from the repository. */
/** A protocol as a list of the repository gives it, with what the tests read of it. */
export interface ProtocolSummary {
  id: number;
  uri: string;
  title: string;
}

export async function publicProtocols(emulator: TestEmulator, count: number): Promise<ProtocolSummary[]> {
  const response = await fetch(`${emulator.url}/api/v3/protocols?filter=public&page_size=${count}`, {
    headers: { authorization: `Bearer ${emulator.demo.clientAccessToken}` },
  });
  return ((await response.json()) as { items: ProtocolSummary[] }).items;
}
