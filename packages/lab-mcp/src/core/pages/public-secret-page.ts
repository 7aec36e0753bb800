// The one-time secret page of a team server: on the server's public URL rather than on loopback, since
// the person's browser is elsewhere, and answerable by any replica behind the load balancer. The page's
// path is the capability (unguessable, one answer); what waits for it and what the form brings travel
// through the shared state, sealed, so the replica that asked and the one that got the form need not be
// the same.
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpRoute } from "../route.js";
import { sleep } from "../sleep.js";
import type { SharedState } from "../state/shared-state.js";
import { sendPage, textPage } from "./local-page.js";
import type { OpenedPage } from "./pending-asks.js";
import { formPage, readForm, type SecretAnswer, type SecretPageText } from "./secret-page.js";

const PREFIX = "/secret/";
/** How long a page stays open; the ask that opened it gives up by then too. */
const PAGE_LIFETIME_MS = 15 * 60_000;
/** How often the waiting call looks for the answer. */
const POLL_MS = 250;
const EXPIRED = textPage(410, "Expired", "This page has expired. Ask your assistant again.");

export class PublicSecretPages {
  constructor(
    private readonly state: SharedState,
    /** The server's public origin (of MCP_AUTH_AUDIENCE), where people's browsers reach it. */
    readonly origin: string,
  ) {}

  /** Opens a page for one answer; `until` settles when the form is posted to any replica. */
  async open(text: SecretPageText): Promise<OpenedPage<SecretAnswer>> {
    const id = randomBytes(24).toString("base64url");
    await this.state.secrets.write(`secret-page:${digest(id)}`, JSON.stringify(text), {
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
          return { secret: posted.value, remember: false };
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
    if (!pending) return sendPage(res, EXPIRED);
    const text = JSON.parse(pending.value) as SecretPageText;
    const path = `${PREFIX}${id}`;
    if (req.method !== "POST") return sendPage(res, formPage(text, path));
    // A form posted from another site must not plant a secret for someone.
    if (req.headers.origin !== undefined && req.headers.origin !== this.origin) {
      return sendPage(res, textPage(403, "Forbidden", "Forbidden."));
    }
    const secret = new URLSearchParams(await readForm(req)).get("secret")?.trim() ?? "";
    if (!secret) return sendPage(res, formPage(text, path, "Please enter a value."));
    // One answer: whoever removes the pending page first (on any replica) is the one.
    if (!(await this.state.secrets.remove(name, pending.version))) return sendPage(res, EXPIRED);
    await this.state.secrets.write(`secret-page-answer:${digest(id)}`, secret, { ttlMs: PAGE_LIFETIME_MS });
    return sendPage(
      res,
      textPage(200, "Thank you", "You can close this window and go back to your assistant."),
    );
  }
}

/** The page's id as a key: Redis never holds the capability itself. */
function digest(id: string): string {
  return createHash("sha256").update(id).digest("base64url");
}
