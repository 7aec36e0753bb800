// The protocol repository's client: one request path for every call (the call's credential, rate
// budgets, retry, timeout, the answers' own status codes) and the PDF clients with their own, tighter
// limit. Transport only: the credential comes with the call (decided at the tool-call boundary). The
// requests themselves are in api/, one file per resource, as for labdata.

import { InvalidResponseError, RemoteStatusError } from "../../core/errors.js";
import type { ApiPath } from "../../core/http/api-path.js";
import { noAuth } from "../../core/http/auth.js";
import { ClientCache } from "../../core/http/client-cache.js";
import { RemoteClient } from "../../core/http/remote-client.js";
import { RateBudget } from "../../core/state/budget.js";
import type { RateLimit, SharedState } from "../../core/state/shared-state.js";
import {
  AUTH_FAILURE_CODES,
  failureCodeOf,
  type RemoteWarning,
  statusOfCode,
  warningOf,
} from "./api/answers.js";
import type { ProtocolsCredential } from "./auth/credential.js";
import type { ProtocolsCall } from "./call.js";
import type { ProtocolsCredentialSource } from "./credential-source.js";
import { isRecord, type Json } from "./records/values.js";

/** The repository's limits: API requests per user, PDF downloads per user, and per address without one. */
export const API_LIMIT: RateLimit = { requests: 100, windowMs: 60_000 };
export const PDF_SIGNED_IN_LIMIT: RateLimit = { requests: 5, windowMs: 60_000 };
export const PDF_ANONYMOUS_LIMIT: RateLimit = { requests: 3, windowMs: 60_000 };
/** The largest PDF read when PROTOCOLS_MAX_PDF_BYTES is not given. */
export const DEFAULT_MAX_PDF_BYTES = 100 * 1024 * 1024;

/** A request's query parameters; undefined ones are not sent. */
type Query = Record<string, string | number | undefined>;

export class ProtocolsClient {
  private readonly remotes = new ClientCache<{
    credential: ProtocolsCredential;
    api: RemoteClient;
    pdf: RemoteClient;
  }>();
  private readonly anonymousPdf: RemoteClient;
  /**
   * 1 when page_id 1 is the first page (as documented), 0 when page_id 0 is; undefined until seen.
   * Learnt and read by api/protocol-lists.ts.
   */
  pageOrigin: 0 | 1 | undefined;
  /** The last warning_code per credential id. */
  private readonly warnings = new ClientCache<RemoteWarning>();

  constructor(
    /** Where calls get their credential: climbed at the tool-call boundary, never by this client. */
    readonly credentials: ProtocolsCredentialSource,
    private readonly timeoutMs: number,
    /** Rate budgets: this process's, or the fleet's. */
    private readonly state: SharedState,
    /** The largest answer of the API and the largest PDF read (MCP_MAX_RESPONSE_BYTES, PROTOCOLS_MAX_PDF_BYTES). */
    private readonly limits: { maxResponseBytes?: number; maxPdfBytes?: number } = {},
  ) {
    this.anonymousPdf = new RemoteClient({
      baseUrl: this.baseUrl,
      auth: noAuth,
      timeoutMs,
      maxResponseBytes: limits.maxPdfBytes ?? DEFAULT_MAX_PDF_BYTES,
      // Counted per address by the repository: every replica behind one address shares it.
      limiter: new RateBudget(state.budget(`protocols:${this.baseUrl}:anonymous:pdf`, PDF_ANONYMOUS_LIMIT)),
    });
  }

  get baseUrl(): string {
    return this.credentials.config.baseUrl;
  }

  /** The PDF client of a credential (its own PDF budget), or the anonymous one (the address's budget). */
  pdfClient(credential: ProtocolsCredential | undefined): RemoteClient {
    return credential ? this.remotesFor(credential).pdf : this.anonymousPdf;
  }

  /** The repository's last warning_code for a credential, kept for the profile. */
  warningFor(credentialId: string): RemoteWarning | undefined {
    return this.warnings.peek(credentialId);
  }

  /** A GET of the API as a JSON object (see `send`). */
  get(path: ApiPath, ctx: ProtocolsCall, query?: Query, asksForOneProtocol = false): Promise<Json> {
    return this.send({ path, query }, ctx, { asksForOneProtocol });
  }

  /**
   * A request of the API, answered with a JSON object. Its status_code is read whatever the HTTP status:
   * 1218/1219 (an invalid or expired token, sent with HTTP 400) renew an OAuth sign-in and send once more,
   * and are the authentication failure otherwise; another code is the error it stands for. A
   * warning_code is logged to the client and kept for the profile.
   */
  async send(
    request: { method?: "GET" | "POST" | "PUT" | "DELETE"; path: ApiPath; query?: Query; body?: unknown },
    ctx: ProtocolsCall,
    { asksForOneProtocol = false }: { asksForOneProtocol?: boolean } = {},
  ): Promise<Json> {
    const signer = ctx.credential;
    for (let attempt = 0; ; attempt++) {
      // The Authorization this request goes with, so that a renewal is skipped when another call did it.
      const sent = signer.renewAfterUnauthorized ? await authorizationOf(signer, ctx.signal) : undefined;
      let body: unknown;
      let httpStatus: number | undefined;
      try {
        body = (await this.remotesFor(signer).api.request<unknown>(request, ctx)).body;
      } catch (error) {
        if (!(error instanceof RemoteStatusError) || error.status === 401 || error.status === 429)
          throw error;
        if (failureCodeOf(error.body) === undefined) throw error;
        body = error.body;
        httpStatus = error.status;
      }
      const code = failureCodeOf(body);
      if (code !== undefined && AUTH_FAILURE_CODES.has(code)) {
        const renewed = attempt === 0 && (await signer.renewAfterUnauthorized?.(ctx.signal, sent)) === true;
        if (renewed) continue;
        throw new RemoteStatusError(401);
      }
      if (code !== undefined) {
        throw new RemoteStatusError(statusOfCode(code, httpStatus, asksForOneProtocol), undefined, body);
      }
      if (!isRecord(body))
        throw new InvalidResponseError("The repository answered with something that is not a JSON object");
      await this.noteWarning(body, signer, ctx);
      return body;
    }
  }

  /** A warning_code (e.g. the token expires in 24 days): a log warning, and kept for the profile. */
  private async noteWarning(body: Json, credential: ProtocolsCredential, ctx: ProtocolsCall): Promise<void> {
    const warning = warningOf(body);
    if (!warning) return;
    const known = this.warnings.peek(credential.id);
    this.warnings.set(credential.id, warning);
    // Said once: every answer carries it until the token is renewed.
    if (known?.code === warning.code && known.message === warning.message) return;
    await ctx.log?.("warning", `The protocol repository warns (code ${warning.code}): ${warning.message}`);
  }

  /**
   * One API client and one PDF client per credential, each on its rate budget (shared by the fleet).
   * The clients sign with the credential object they were made for: another object under the same id
   * (a fleet's sign-in names every session of it alike, e.g. after a sign-in again) gets clients of its
   * own, or its requests would go out with the other session's tokens while it renews its own.
   */
  private remotesFor(credential: ProtocolsCredential) {
    const known = this.remotes.peek(credential.id);
    if (known?.credential === credential) return this.remotes.obtain(credential.id, () => known);
    const make = (kind: string, limit: RateLimit, maxResponseBytes: number | undefined) =>
      new RemoteClient({
        baseUrl: this.baseUrl,
        auth: credential,
        timeoutMs: this.timeoutMs,
        maxResponseBytes,
        limiter: new RateBudget(
          this.state.budget(`protocols:${this.baseUrl}:${credential.id}:${kind}`, limit),
        ),
      });
    const made = {
      credential,
      api: make("api", API_LIMIT, this.limits.maxResponseBytes),
      pdf: make("pdf", PDF_SIGNED_IN_LIMIT, this.limits.maxPdfBytes ?? DEFAULT_MAX_PDF_BYTES),
    };
    this.remotes.set(credential.id, made);
    return made;
  }
}

/** The Authorization header a credential signs with now. */
async function authorizationOf(
  credential: ProtocolsCredential,
  signal?: AbortSignal,
): Promise<string | null> {
  const headers = new Headers();
  await credential.authorize(headers, signal);
  return headers.get("authorization");
}
