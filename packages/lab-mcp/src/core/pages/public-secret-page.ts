// The one-time secret page of a team server: on the server's public URL rather than on loopback, since
// the person's browser is elsewhere, and answerable by any replica behind the load balancer. The page's
// path is the capability (unguessable, one answer); what waits for it and what the form brings travel
// through the shared state, sealed, so the replica that asked and the one that got the form need not be
// the same. The page is the asking person's alone: the browser signs in at the authorization server
// (browser-sign-in.ts) and the page shows its form, and takes an answer, only when that is the person
// whose assistant asked (a forwarded page cannot make someone type their key for someone else).
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Person } from "../caller.js";
import { ActionableError } from "../errors.js";
import type { HttpRoute } from "../route.js";
import { sleep } from "../sleep.js";
import type { SharedState } from "../state/shared-state.js";
import { BROWSER_START_PATH, type BrowserPerson, type BrowserSignIn } from "./browser-sign-in.js";
import { escapeHtml, type PageReply, sendPage, textPage } from "./local-page.js";
import type { OpenedPage } from "./pending-asks.js";
import { formPage, readForm, type SecretAnswer, type SecretPageText } from "./secret-page.js";

const PREFIX = "/secret/";
/** How long a page stays open; the ask that opened it gives up by then too. */
const PAGE_LIFETIME_MS = 15 * 60_000;
/** How often the waiting call looks for the answer. */
const POLL_MS = 250;
const EXPIRED = textPage(410, "Expired", "This page has expired. Ask your assistant again.");

/** What waits in the shared state for the page's answer: its text, and whose it is. */
interface PendingPage {
  text: SecretPageText;
  /** The asking person's subject (`<issuer> <sub>`): only a browser signed in as them may answer. */
  owner: string;
  ownerEmail?: string;
}

/** Without its own client at the authorization server, a team server cannot tell who opens a page. */
export const NO_BROWSER_SIGN_IN =
  "This team server cannot check who opens its pages, so it asks no one to type a key: its operator must " +
  "set MCP_AUTH_CLIENT_ID and MCP_AUTH_CLIENT_SECRET (the server's own client at the authorization server; " +
  "see docs/deployment.md)";

export class PublicSecretPages {
  constructor(
    private readonly state: SharedState,
    /** The server's public origin (of MCP_AUTH_AUDIENCE), where people's browsers reach it. */
    readonly origin: string,
    /** Who is at the browser (MCP_AUTH_CLIENT_ID); without it no page is opened. */
    private readonly signIn: BrowserSignIn | undefined,
  ) {}

  /** Opens a page for `person`'s one answer; `until` settles when the form is posted to any replica. */
  async open(text: SecretPageText, person: Person): Promise<OpenedPage<SecretAnswer>> {
    if (!this.signIn) throw new ActionableError(NO_BROWSER_SIGN_IN);
    const id = randomBytes(24).toString("base64url");
    const pending: PendingPage = { text, owner: person.subject, ownerEmail: person.email };
    await this.state.secrets.write(`secret-page:${digest(id)}`, JSON.stringify(pending), {
      ttlMs: PAGE_LIFETIME_MS,
      ifVersion: null,
    });
    return this.resume(id);
  }

  /** The page `id` (opened here or by another replica): its URL, and its answer once posted anywhere. */
  resume(id: string): OpenedPage<SecretAnswer> {
    const key = digest(id);
    let closed = false;
    const wait = async (): Promise<SecretAnswer> => {
      for (const end = Date.now() + PAGE_LIFETIME_MS; Date.now() < end && !closed; ) {
        const posted = await this.state.secrets.read(`secret-page-answer:${key}`);
        if (posted) {
          await this.state.secrets.remove(`secret-page-answer:${key}`);
          return parseAnswer(posted.value);
        }
        await sleep(POLL_MS);
      }
      throw new Error("The secret page was closed before an answer");
    };
    let waiting: Promise<SecretAnswer> | undefined;
    return {
      url: `${this.origin}${PREFIX}${id}`,
      // Polled only by the replica that waits: the one that opened the page may never be asked again.
      get until() {
        waiting ??= wait();
        return waiting;
      },
      resumeToken: id,
      close: () => {
        closed = true;
        void this.state.secrets.remove(`secret-page:${key}`).catch(() => undefined);
      },
    };
  }

  /** The pages' route on the HTTP transport: GET shows the form, POST takes the answer. */
  route(): HttpRoute {
    return {
      path: PREFIX,
      prefix: true,
      methods: ["GET", "HEAD", "POST"],
      handle: (req, res, url) => this.handle(req, res, url),
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const id = url.pathname.slice(PREFIX.length);
    const name = `secret-page:${digest(id)}`;
    const pending = /^[A-Za-z0-9_-]{32}$/.test(id) ? await this.state.secrets.read(name) : undefined;
    if (!pending || !this.signIn) return sendPage(res, EXPIRED);
    const page = JSON.parse(pending.value) as PendingPage;
    const path = `${PREFIX}${id}`;
    // A form posted from another site must not plant a secret for someone.
    if (req.method === "POST" && req.headers.origin !== undefined && req.headers.origin !== this.origin) {
      return sendPage(res, textPage(403, "Forbidden", "Forbidden."));
    }
    const visitor = await this.signIn.person(req);
    if (!visitor) {
      // A link checker's HEAD starts no sign-in.
      if (req.method === "HEAD")
        return sendPage(res, textPage(200, "Sign in", "Open this address with GET."));
      if (req.method === "POST") return sendPage(res, notSignedIn(path));
      return this.signIn.redirectToSignIn(res, path);
    }
    if (visitor.subject !== page.owner) return sendPage(res, notYours(page, visitor, path));
    const text = { ...page.text, forWhom: page.ownerEmail ?? "you" };
    if (req.method !== "POST") return sendPage(res, formPage(text, path));
    const secret = new URLSearchParams(await readForm(req)).get("secret")?.trim() ?? "";
    if (!secret) return sendPage(res, formPage(text, path, "Please enter a value."));
    // One answer: whoever removes the pending page first (on any replica) is the one.
    if (!(await this.state.secrets.remove(name, pending.version))) return sendPage(res, EXPIRED);
    // With the sender's email from their browser's sign-in: whose key it is gets checked against it.
    const answer: PostedAnswer = { secret, ...(visitor.email ? { senderEmail: visitor.email } : {}) };
    await this.state.secrets.write(`secret-page-answer:${digest(id)}`, JSON.stringify(answer), {
      ttlMs: PAGE_LIFETIME_MS,
    });
    return sendPage(
      res,
      textPage(200, "Thank you", "You can close this window and go back to your assistant."),
    );
  }
}

/** The page of someone else's assistant: it says whose it is and why it takes nothing from this browser. */
function notYours(page: PendingPage, visitor: BrowserPerson, path: string): PageReply {
  const owner = page.ownerEmail ?? "another person";
  const you = visitor.email ? ` (${visitor.email})` : "";
  return {
    status: 403,
    title: "This page is not yours",
    body:
      `<h1>This page is not yours</h1><p>This page was opened by the assistant of ${escapeHtml(owner)}, for ` +
      `them alone. You are signed in as someone else${escapeHtml(you)}, so it takes no key from you: whatever ` +
      `you typed here would act as you in their assistant. Nothing was sent. If someone sent you this address, ` +
      `do not type your key for them; ask your own assistant instead.</p>` +
      `<p><a href="${BROWSER_START_PATH}?to=${encodeURIComponent(path)}">Sign in as someone else</a></p>`,
  };
}

function notSignedIn(path: string): PageReply {
  return {
    status: 403,
    title: "Sign in first",
    body:
      `<h1>Sign in first</h1><p>This page takes a key only from the person it was opened for, once they ` +
      `have signed in. Nothing was sent.</p><p><a href="${escapeHtml(path)}">Sign in</a></p>`,
  };
}

/** What a posted form leaves in the shared state for the waiting call. */
interface PostedAnswer {
  secret: string;
  senderEmail?: string;
}

function parseAnswer(value: string): SecretAnswer {
  const posted = JSON.parse(value) as PostedAnswer;
  return {
    secret: String(posted.secret),
    remember: false,
    ...(typeof posted.senderEmail === "string" ? { senderEmail: posted.senderEmail } : {}),
  };
}

/** The page's id as a key: Redis never holds the capability itself. */
function digest(id: string): string {
  return createHash("sha256").update(id).digest("base64url");
}
