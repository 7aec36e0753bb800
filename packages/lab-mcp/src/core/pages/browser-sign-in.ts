// Who is at the browser: a team server's pages (the key page, the repository's connect link) are
// forwarded by people to other people, so before one acts it signs the browser in at the MCP
// authorization server (MCP_AUTH_ISSUER), with this server as its confidential client
// (MCP_AUTH_CLIENT_ID, MCP_AUTH_CLIENT_SECRET): authorization code with PKCE and a nonce, the ID token
// checked with jose. The person it names is kept in a short-lived sealed cookie; a page then acts only
// for the person it was opened for (the MCP specification's URL elicitation, "Phishing"). The pending
// sign-ins are in the shared state and the cookies are sealed with a key from MCP_STATE_KEY, so the
// browser may come back to any replica.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parse as parseCookies, serialize as serializeCookie } from "cookie";
import { createRemoteJWKSet, EncryptJWT, jwtDecrypt, jwtVerify } from "jose";
import { discover } from "../auth/discovery.js";
import { personSubject } from "../auth/resource-server.js";
import type { HttpRoute } from "../route.js";
import type { SharedState } from "../state/shared-state.js";
import { sendPage, textPage } from "./local-page.js";

export interface BrowserSignInSettings {
  issuer: string;
  /** The server's public MCP URL (MCP_AUTH_AUDIENCE): its origin is where browsers come back. */
  audience: string;
  clientId: string;
  clientSecret: string;
}

/** The person a browser signed in as. */
export interface BrowserPerson {
  /** `<issuer> <sub>`, as ClientSession.person.subject names the same person. */
  subject: string;
  email?: string;
}

export const BROWSER_CALLBACK_PATH = "/auth/browser/callback";
/** Starts a new sign-in of the browser (e.g. as someone else), back to `to`, a path of this server. */
export const BROWSER_START_PATH = "/auth/browser/start";
const PERSON_COOKIE = "lab_mcp_person";
const LOGIN_COOKIE = "lab_mcp_sign_in";
/** How long a browser's sign-in is good for this server's pages. */
const PERSON_TTL_S = 15 * 60;
/** How long the browser has at the identity provider. */
const LOGIN_TTL_S = 10 * 60;
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "EdDSA"];
const CLOCK_TOLERANCE_S = 30;
const TOKEN_TIMEOUT_MS = 10_000;

interface Endpoints {
  authorize: URL;
  token: URL;
  jwks: ReturnType<typeof createRemoteJWKSet>;
}

interface PendingLogin {
  verifier: string;
  nonce: string;
  to: string;
}

export class BrowserSignIn {
  readonly origin: string;
  /** Cookies are Secure where the public origin is https (plain http only on loopback). */
  readonly secure: boolean;
  private readonly sealKey: Uint8Array;
  private readonly bindKey: Buffer;
  private endpoints: Promise<Endpoints> | undefined;

  constructor(
    private readonly settings: BrowserSignInSettings,
    private readonly state: SharedState,
    /** 32 bytes, the same on every replica (derived from MCP_STATE_KEY). */
    key: Buffer,
  ) {
    this.origin = new URL(settings.audience).origin;
    this.secure = this.origin.startsWith("https:");
    this.sealKey = createHmac("sha256", key).update("person cookie").digest();
    this.bindKey = createHmac("sha256", key).update("bound cookies").digest();
  }

  get redirectUri(): string {
    return `${this.origin}${BROWSER_CALLBACK_PATH}`;
  }

  /** The person this browser signed in as, from its cookie, or undefined. */
  async person(req: IncomingMessage): Promise<BrowserPerson | undefined> {
    const sealed = parseCookies(req.headers.cookie ?? "")[PERSON_COOKIE];
    if (!sealed) return undefined;
    try {
      const { payload } = await jwtDecrypt(sealed, this.sealKey, { maxTokenAge: PERSON_TTL_S });
      if (typeof payload.sub !== "string" || payload.sub === "") return undefined;
      return { subject: payload.sub, email: typeof payload.email === "string" ? payload.email : undefined };
    } catch {
      return undefined;
    }
  }

  /** Sends the browser to the identity provider to sign in; it comes back to `to` (a path here). */
  async redirectToSignIn(res: ServerResponse, to: string): Promise<void> {
    let endpoints: Endpoints;
    try {
      endpoints = await this.discovered();
    } catch {
      return sendPage(
        res,
        textPage(
          502,
          "Sign-in unavailable",
          "This server cannot reach its identity provider to check who you are. Try again in a minute.",
        ),
      );
    }
    const state = randomBytes(32).toString("base64url");
    const login: PendingLogin = {
      verifier: randomBytes(32).toString("base64url"),
      nonce: randomBytes(16).toString("base64url"),
      to: safePath(to),
    };
    await this.state.secrets.write(loginName(state), JSON.stringify(login), {
      ttlMs: LOGIN_TTL_S * 1000,
      ifVersion: null,
    });
    const url = new URL(endpoints.authorize);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: this.settings.clientId,
      redirect_uri: this.redirectUri,
      scope: "openid email",
      state,
      nonce: login.nonce,
      code_challenge: createHash("sha256").update(login.verifier).digest("base64url"),
      code_challenge_method: "S256",
      resource: this.settings.audience,
    }).toString();
    // The state is bound to this browser too: a sign-in someone else started cannot land here.
    redirect(res, url.href, [
      this.cookie(LOGIN_COOKIE, this.bound(`login\n${state}`), LOGIN_TTL_S, "/auth/browser/"),
    ]);
  }

  /**
   * A short-lived cookie bound to `binding` (e.g. one pending sign-in): HttpOnly, SameSite=Lax, Secure
   * on https, only under `path`. Only this server can make its value.
   */
  bindCookie(name: string, binding: string, maxAgeS: number, path: string): string {
    return this.cookie(name, this.bound(binding), maxAgeS, path);
  }

  /** Whether the browser brought the cookie `name` bound to `binding`. */
  hasBoundCookie(req: IncomingMessage, name: string, binding: string): boolean {
    const value = parseCookies(req.headers.cookie ?? "")[name];
    return value !== undefined && sameText(value, this.bound(binding));
  }

  /** The routes: the identity provider's callback, and a fresh sign-in (as someone else). */
  routes(): HttpRoute[] {
    return [
      { path: BROWSER_CALLBACK_PATH, handle: (req, res, url) => this.callback(req, res, url) },
      {
        path: BROWSER_START_PATH,
        // A link checker's HEAD starts no sign-in.
        handle: (req, res, url) =>
          req.method === "HEAD"
            ? Promise.resolve(sendPage(res, textPage(200, "Sign in", "Open this address with GET.")))
            : this.redirectToSignIn(res, url.searchParams.get("to") ?? "/"),
      },
    ];
  }

  private async callback(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (req.method === "HEAD") return sendPage(res, textPage(200, "Sign-in", "Open this address with GET."));
    const state = url.searchParams.get("state") ?? "";
    if (!state || !this.hasBoundCookie(req, LOGIN_COOKIE, `login\n${state}`))
      return sendPage(res, NOT_STARTED);
    const login = await this.takeLogin(state);
    if (!login) return sendPage(res, NOT_STARTED);
    const code = url.searchParams.get("code");
    if (!code) {
      return sendPage(
        res,
        textPage(
          400,
          "Sign-in not completed",
          "You did not sign in at the identity provider, so this server does not know who you are. Nothing was done.",
        ),
      );
    }
    const person = await this.personOfCode(code, login).catch(() => undefined);
    if (!person) {
      return sendPage(
        res,
        textPage(
          502,
          "Sign-in failed",
          "The identity provider's answer could not be checked, so this server does not know who you are. Nothing was done. Open the address again to retry.",
        ),
      );
    }
    const sealed = await new EncryptJWT({ email: person.email })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setSubject(person.subject)
      .setIssuedAt()
      .setExpirationTime(`${PERSON_TTL_S}s`)
      .encrypt(this.sealKey);
    redirect(res, `${this.origin}${login.to}`, [
      this.cookie(PERSON_COOKIE, sealed, PERSON_TTL_S, "/"),
      this.cookie(LOGIN_COOKIE, "", 0, "/auth/browser/"),
    ]);
  }

  /** Trades the code for tokens as the confidential client, and checks the ID token (issuer, audience, nonce). */
  private async personOfCode(code: string, login: PendingLogin): Promise<BrowserPerson> {
    const endpoints = await this.discovered();
    const { clientId, clientSecret } = this.settings;
    const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString(
      "base64",
    );
    const response = await fetch(endpoints.token, {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        redirect_uri: this.redirectUri,
        code_verifier: login.verifier,
      }),
      redirect: "error",
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`token endpoint answered ${response.status}`);
    const { id_token: idToken } = (await response.json()) as { id_token?: unknown };
    if (typeof idToken !== "string") throw new Error("no ID token");
    const { payload } = await jwtVerify(idToken, endpoints.jwks, {
      issuer: this.settings.issuer,
      audience: clientId,
      algorithms: ALGORITHMS,
      clockTolerance: CLOCK_TOLERANCE_S,
      requiredClaims: ["sub", "exp", "nonce"],
    });
    if (payload.nonce !== login.nonce || typeof payload.sub !== "string" || payload.sub === "") {
      throw new Error("the ID token is not this sign-in's");
    }
    return {
      subject: personSubject(this.settings.issuer, payload.sub),
      email: typeof payload.email === "string" && payload.email !== "" ? payload.email : undefined,
    };
  }

  private async takeLogin(state: string): Promise<PendingLogin | undefined> {
    const stored = await this.state.secrets.read(loginName(state));
    if (!stored || !(await this.state.secrets.remove(loginName(state), stored.version))) return undefined;
    try {
      const login = JSON.parse(stored.value) as PendingLogin;
      return typeof login.verifier === "string" && typeof login.nonce === "string" ? login : undefined;
    } catch {
      return undefined;
    }
  }

  private discovered(): Promise<Endpoints> {
    this.endpoints ??= discover(this.settings.issuer).then(
      (metadata) => {
        if (!metadata.authorizationEndpoint || !metadata.tokenEndpoint) {
          throw new Error("no authorization or token endpoint in its metadata");
        }
        return {
          authorize: metadata.authorizationEndpoint,
          token: metadata.tokenEndpoint,
          jwks: createRemoteJWKSet(metadata.jwksUri),
        };
      },
      (error: unknown) => {
        this.endpoints = undefined;
        throw error;
      },
    );
    return this.endpoints;
  }

  private bound(binding: string): string {
    return createHmac("sha256", this.bindKey).update(binding).digest("base64url");
  }

  private cookie(name: string, value: string, maxAgeS: number, path: string): string {
    return serializeCookie(name, value, {
      httpOnly: true,
      secure: this.secure,
      sameSite: "lax",
      path,
      maxAge: maxAgeS,
    });
  }
}

const NOT_STARTED = textPage(
  400,
  "Sign-in refused",
  "This sign-in was not started in this browser (an old or used link, or one someone sent you), so it signs " +
    "no one in. Open the address your own assistant gave you.",
);

/**
 * Only a path of this server: never another site (an open redirect). Browsers drop tabs and line
 * breaks from a Location and read "\\" as "/", so "/\t/evil.example" would be "//evil.example".
 */
export function safePath(to: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  return to.startsWith("/") && !/^.[/\\]/.test(to) && !/[\\\u0000-\u001f\u007f]/.test(to) ? to : "/";
}

function redirect(res: ServerResponse, location: string, cookies: string[]): void {
  res.writeHead(303, {
    location,
    "set-cookie": cookies,
    "cache-control": "no-store",
    "referrer-policy": "same-origin",
  });
  res.end();
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function loginName(state: string): string {
  return `browser-sign-in:${createHash("sha256").update(state).digest("base64url")}`;
}
