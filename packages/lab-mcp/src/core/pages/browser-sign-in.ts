// Who is at the browser: a team server's pages (the key page, the repository's connect link) are
// forwarded by people to other people, so before one acts it signs the browser in at the MCP
// authorization server (MCP_AUTH_ISSUER), with this server as its confidential client
// (MCP_AUTH_CLIENT_ID, MCP_AUTH_CLIENT_SECRET): authorization code with PKCE and a nonce, the ID token
// checked with jose. The person it names is kept in a short-lived sealed cookie; a page then acts only
// for the person it was opened for (the MCP specification's URL elicitation, "Phishing"). A sign-in in
// progress is sealed in the browser's own cookie (nothing is stored for a browser nobody knows yet), and
// the cookies are sealed with a key from MCP_STATE_KEY, so the browser may come back to any replica.
// Every cookie is `__Host-` (Secure, Path=/, no Domain): no sibling site under the same parent domain
// can write one, so none can plant its own sign-in or binding in a colleague's browser. Browsers keep
// such cookies on https and on plain-http loopback alike (Chromium, Firefox); a value bound to one
// sign-in is random per browser and kept in the shared state, never derived from the sign-in itself.
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
/** The prefix browsers keep for cookies only this host can set: Secure, Path=/, no Domain. */
const HOST_ONLY = "__Host-";
const PERSON_COOKIE = `${HOST_ONLY}lab_mcp_person`;
const LOGIN_COOKIE = `${HOST_ONLY}lab_mcp_sign_in`;
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

/** A sign-in at the identity provider in progress, sealed in the browser's cookie. */
interface PendingLogin {
  state: string;
  verifier: string;
  nonce: string;
  to: string;
}

export class BrowserSignIn {
  readonly origin: string;
  private readonly sealKey: Uint8Array;
  private readonly loginKey: Uint8Array;
  private endpoints: Promise<Endpoints> | undefined;

  constructor(
    private readonly settings: BrowserSignInSettings,
    private readonly state: SharedState,
    /** 32 bytes, the same on every replica (derived from MCP_STATE_KEY). */
    key: Buffer,
  ) {
    this.origin = new URL(settings.audience).origin;
    this.sealKey = createHmac("sha256", key).update("person cookie").digest();
    this.loginKey = createHmac("sha256", key).update("sign-in cookie").digest();
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
    const login: PendingLogin = {
      state: randomBytes(32).toString("base64url"),
      verifier: randomBytes(32).toString("base64url"),
      nonce: randomBytes(16).toString("base64url"),
      to: safePath(to),
    };
    const url = new URL(endpoints.authorize);
    url.search = new URLSearchParams({
      response_type: "code",
      client_id: this.settings.clientId,
      redirect_uri: this.redirectUri,
      scope: "openid email",
      state: login.state,
      nonce: login.nonce,
      code_challenge: createHash("sha256").update(login.verifier).digest("base64url"),
      code_challenge_method: "S256",
      resource: this.settings.audience,
    }).toString();
    // The sign-in lives in this browser alone: a sign-in someone else started cannot land here, and
    // nothing is kept for a browser that never comes back.
    const sealed = await new EncryptJWT({ ...login })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setIssuedAt()
      .setExpirationTime(`${LOGIN_TTL_S}s`)
      .encrypt(this.loginKey);
    redirect(res, url.href, [this.cookie(LOGIN_COOKIE, sealed, LOGIN_TTL_S)]);
  }

  /**
   * A short-lived `__Host-` cookie `name` (HttpOnly, SameSite=Lax) that binds this browser to `binding`
   * (e.g. one pending sign-in): its value is random, and only its digest is kept, in the shared state,
   * for as long. Binding another browser to the same `binding` unbinds the first.
   */
  async bindCookie(name: string, binding: string, maxAgeS: number): Promise<string> {
    const value = randomBytes(32).toString("base64url");
    await this.state.secrets.write(bindingName(name, binding), digestOf(value), { ttlMs: maxAgeS * 1000 });
    return this.cookie(hostCookie(name), value, maxAgeS);
  }

  /** Whether this browser is the one bound to `binding` by its cookie `name`. */
  async hasBoundCookie(req: IncomingMessage, name: string, binding: string): Promise<boolean> {
    const value = parseCookies(req.headers.cookie ?? "")[hostCookie(name)];
    if (!value) return false;
    const stored = await this.state.secrets.read(bindingName(name, binding));
    return stored !== undefined && sameText(stored.value, digestOf(value));
  }

  /** Forgets the binding (its sign-in is over), and the cookie for this browser. */
  async unbind(name: string, binding: string): Promise<string> {
    await this.state.secrets.remove(bindingName(name, binding));
    return this.cookie(hostCookie(name), "", 0);
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
    const login = await this.loginOf(req);
    // This browser's sign-in cookie is spent whatever the answer: a refused callback ends it.
    const spent = this.cookie(LOGIN_COOKIE, "", 0);
    if (!state || !login || !sameText(state, login.state)) return sendPage(res, NOT_STARTED, false, [spent]);
    const code = url.searchParams.get("code");
    if (!code) {
      return sendPage(
        res,
        textPage(
          400,
          "Sign-in not completed",
          "You did not sign in at the identity provider, so this server does not know who you are. Nothing was done.",
        ),
        false,
        [spent],
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
        false,
        [spent],
      );
    }
    const sealed = await new EncryptJWT({ email: person.email })
      .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
      .setSubject(person.subject)
      .setIssuedAt()
      .setExpirationTime(`${PERSON_TTL_S}s`)
      .encrypt(this.sealKey);
    redirect(res, `${this.origin}${login.to}`, [this.cookie(PERSON_COOKIE, sealed, PERSON_TTL_S), spent]);
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
      // An address the provider says it did not verify names no one: never compared with a key's owner.
      email:
        typeof payload.email === "string" && payload.email !== "" && payload.email_verified !== false
          ? payload.email
          : undefined,
    };
  }

  /** The sign-in this browser started, from its sealed cookie, while it is good. */
  private async loginOf(req: IncomingMessage): Promise<PendingLogin | undefined> {
    const sealed = parseCookies(req.headers.cookie ?? "")[LOGIN_COOKIE];
    if (!sealed) return undefined;
    try {
      const { payload } = await jwtDecrypt(sealed, this.loginKey, { maxTokenAge: LOGIN_TTL_S });
      const { state, verifier, nonce, to } = payload;
      return typeof state === "string" &&
        typeof verifier === "string" &&
        typeof nonce === "string" &&
        typeof to === "string"
        ? { state, verifier, nonce, to: safePath(to) }
        : undefined;
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

  /** A `__Host-` cookie: Secure, Path=/, no Domain (what the prefix requires), HttpOnly, SameSite=Lax. */
  private cookie(name: string, value: string, maxAgeS: number): string {
    return serializeCookie(name, value, {
      httpOnly: true,
      secure: true,
      sameSite: "lax",
      path: "/",
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

function digestOf(value: string): string {
  return createHash("sha256").update(value).digest("base64url");
}

function hostCookie(name: string): string {
  return name.startsWith(HOST_ONLY) ? name : `${HOST_ONLY}${name}`;
}

/** Where the digest of the value bound to `binding` is kept: a digest names it, never the binding. */
function bindingName(name: string, binding: string): string {
  return `browser-binding:${digestOf(`${hostCookie(name)}\n${binding}`)}`;
}
