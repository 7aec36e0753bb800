import { ActionableError } from "../../../core/errors.js";
import { responseFormat } from "../../../core/inputs.js";
import { fieldList, heading, json, markdown, nameWithId } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import type { ProtocolsApi } from "../client.js";
import { pdfPageCount, safeFileStem, savePdf } from "../format/pdf-file.js";
import { pdfViewInputs, pdfViewOf, protocolRef } from "../inputs.js";
import { pdfViewSuffix, pdfViewWords } from "../pdf-view.js";

export const downloadPdf = defineTool({
  name: "protocols_download_pdf",
  title: "Download Protocol PDF",
  description:
    "Download a protocol as a PDF into the downloads folder (PROTOCOLS_DOWNLOAD_DIR) and return the file's path, " +
    "size and page count. The repository allows 5 PDFs a minute (3 without sign-in): beyond that the call waits " +
    "for a slot, reporting progress, rather than failing. Give only (materials, steps or commands) or " +
    "compact_view for part of it. Find the id or uri with protocols_search; without sign-in give the uri.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "pdfs",
  input: {
    protocol: protocolRef("The protocol's id (e.g. 12314) or uri, from protocols_search."),
    ...pdfViewInputs,
    response_format: responseFormat,
  },
  async handler({ protocol, only, compact_view, response_format }, ctx, api: ProtocolsApi) {
    const view = pdfViewOf({ only, compact_view });
    const { credential, why, anonymous } = await api.credentials.current(ctx);
    // Nobody signed in: public PDFs are anyone's. A sign-in that stopped working is said, not bypassed.
    if (!credential && !anonymous)
      throw new ActionableError(why ?? "Not signed in to the protocol repository.");
    let uri = protocol;
    let about: { id: number; title: string; public: boolean } | undefined;
    if (credential) {
      const record = await api.protocol(protocol, ctx, { withSteps: false });
      uri = record.uri;
      about = { id: record.id, title: record.title, public: record.public !== false };
    } else if (/^\d+$/.test(protocol)) {
      throw new ActionableError(
        "Without a sign-in, protocols_download_pdf needs the protocol's uri (from protocols_search), not its id.",
      );
    }
    await ctx.progress(0.1, "Downloading the PDF");
    const { bytes } = await api.pdf(uri, credential, ctx, view);
    await ctx.progress(0.9, "Saving the PDF");
    const dir = api.credentials.config.downloadDir;
    const stem = safeFileStem(uri, `protocol-${about?.id ?? "download"}`) + pdfViewSuffix(view);
    const path = await savePdf(dir, stem, bytes, {
      private: about ? !about.public : false,
    });
    const pages = pdfPageCount(bytes) ?? null;
    const downloadedAs = credential ? credential.description : "anonymously (public protocols only)";
    if (response_format === "json") {
      return json({
        path,
        bytes: bytes.length,
        pages,
        protocol_id: about?.id ?? null,
        uri,
        title: about?.title ?? null,
        downloaded_as: credential?.kind ?? "anonymous",
        ...(view.only || view.compact ? { view: pdfViewWords(view) } : {}),
      });
    }
    return markdown(
      heading(1, `PDF saved: ${about ? nameWithId(about.title, about.id) : uri}`),
      fieldList({
        File: path,
        Size: `${formatSize(bytes.length)} (${bytes.length.toLocaleString("en-US")} bytes)`,
        Pages: pages ?? "unknown",
        Holds: view.only || view.compact ? pdfViewWords(view) : undefined,
        "Downloaded with": downloadedAs,
      }),
    );
  },
});

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
