// One protocol's PDF by id or uri, with the credential in use (or anonymously, for public protocols,
// when nobody signed in), within the repository's PDF budget: what protocols_download_pdf and the PDF
// resource both read, so the 5-a-minute limit holds whichever way the bytes go.

import type { ToolContext } from "../../../core/context.js";
import { ActionableError, InvalidResponseError } from "../../../core/errors.js";
import { apiPath } from "../../../core/http/api-path.js";
import type { RequestScope } from "../../../core/http/remote-client.js";
import type { ProtocolsCredential } from "../auth/credential.js";
import type { ProtocolsClient } from "../client.js";
import { FULL_PDF, type PdfView, pdfQuery } from "./pdf-view.js";
import { fetchProtocol } from "./protocols.js";

export interface ProtocolPdf {
  bytes: Uint8Array;
  /** The protocol's uri (its slug), which names the PDF resource and the file. */
  uri: string;
  /** What the repository said of the protocol, when signed in (anonymous downloads ask nothing). */
  about?: { id: number; title: string; public: boolean };
  credential: ProtocolsCredential | undefined;
}

/** The PDF resource of a protocol, by its uri, with the view's options as its query. */
export function pdfResourceUri(uri: string, view: PdfView = FULL_PDF): string {
  const query = new URLSearchParams();
  if (view.only) query.set("only", view.only);
  if (view.compact) query.set("compact_view", "true");
  const search = query.toString();
  return `protocols://protocols/${encodeURIComponent(uri)}/pdf${search ? `?${search}` : ""}`;
}

/** The PDF of `protocol`; `asker` names who needs a uri rather than an id without a sign-in. */
export async function fetchProtocolPdf(
  client: ProtocolsClient,
  protocol: string,
  ctx: ToolContext & { readonly credential: ProtocolsCredential | undefined },
  asker: string,
  view: PdfView = FULL_PDF,
): Promise<ProtocolPdf> {
  // Nobody signed in (no credential): public PDFs are anyone's.
  const { credential } = ctx;
  let uri = protocol;
  let about: ProtocolPdf["about"];
  if (credential) {
    const record = await fetchProtocol(client, protocol, { ...ctx, credential }, { withSteps: false });
    uri = record.uri;
    about = { id: record.id, title: record.title, public: record.public !== false };
  } else if (/^\d+$/.test(protocol)) {
    throw new ActionableError(
      `Without a sign-in, ${asker} needs the protocol's uri (from protocols_search), not its id.`,
    );
  }
  await ctx.progress(0.1, "Downloading the PDF");
  const bytes = await downloadPdf(client, uri, credential, ctx, view);
  return { bytes, uri, about, credential };
}

/**
 * GET /view/<uri>.pdf with the credential in use, or anonymously without one, in the view asked for
 * (compact, or one part only). Waits for a slot of the PDF limit (reporting progress through ctx)
 * rather than failing: every view counts against the same 5 a minute.
 */
export async function downloadPdf(
  client: ProtocolsClient,
  uri: string,
  credential: ProtocolsCredential | undefined,
  ctx: RequestScope,
  view: PdfView = FULL_PDF,
): Promise<Uint8Array> {
  const { body, headers } = await client
    .pdfClient(credential)
    .request<Uint8Array>(
      { path: apiPath`view/${uri}.pdf`, query: pdfQuery(view), responseType: "bytes" },
      ctx,
    );
  const type = headers.get("content-type") ?? "";
  if (!isPdf(body) || !/application\/pdf/i.test(type)) {
    throw new InvalidResponseError("The repository answered the PDF view with something that is not a PDF");
  }
  return body;
}

/** A PDF starts with "%PDF-". */
function isPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 5)).toString("latin1") === "%PDF-";
}
