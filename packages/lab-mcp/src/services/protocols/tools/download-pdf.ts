import { z } from "zod";
import { ActionableError } from "../../../core/errors.js";
import { responseFormat } from "../../../core/inputs.js";
import { fieldList, heading, json, markdown, nameWithId } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import type { ProtocolsApi } from "../client.js";
import { pdfPageCount, safeFileStem, savePdf } from "../format/pdf-file.js";
import { protocolRef } from "../inputs.js";

export const downloadPdf = defineTool({
  name: "protocols_download_pdf",
  title: "Download Protocol PDF",
  description:
    "Download a protocol as a PDF into the downloads folder (PROTOCOLS_DOWNLOAD_DIR) and return the file's path, " +
    "size and page count. The repository allows 5 PDFs a minute (3 without sign-in): beyond that the call waits " +
    "for a slot, reporting progress, rather than failing. Find the id or uri with protocols_search; without " +
    "sign-in give the uri.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "pdfs",
  input: {
    protocol: protocolRef("The protocol's id (e.g. 12314) or uri, from protocols_search."),
    response_format: responseFormat,
  },
  // What was saved where: the file, its size, the protocol; never the credential, only its kind.
  output: {
    path: z.string().describe("Where the PDF was saved."),
    bytes: z.number().int(),
    pages: z.number().int().nullable().describe("The PDF's page count; null when it does not say."),
    protocol_id: z.number().int().nullable().describe("Null when downloaded without sign-in."),
    uri: z.string(),
    title: z.string().nullable(),
    downloaded_as: z.enum(["client_token", "oauth", "anonymous"]),
  },
  async handler({ protocol, response_format }, ctx, api: ProtocolsApi) {
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
    const { bytes } = await api.pdf(uri, credential, ctx);
    await ctx.progress(0.9, "Saving the PDF");
    const dir = api.credentials.config.downloadDir;
    const path = await savePdf(dir, safeFileStem(uri, `protocol-${about?.id ?? "download"}`), bytes, {
      private: about ? !about.public : false,
    });
    const pages = pdfPageCount(bytes) ?? null;
    const downloadedAs = credential ? credential.description : "anonymously (public protocols only)";
    const saved = {
      path,
      bytes: bytes.length,
      pages,
      protocol_id: about?.id ?? null,
      uri,
      title: about?.title ?? null,
      downloaded_as: credential?.kind ?? ("anonymous" as const),
    };
    if (response_format === "json") return reply(saved, json(saved));
    const text = markdown(
      heading(1, `PDF saved: ${about ? nameWithId(about.title, about.id) : uri}`),
      fieldList({
        File: path,
        Size: `${formatSize(bytes.length)} (${bytes.length.toLocaleString("en-US")} bytes)`,
        Pages: pages ?? "unknown",
        "Downloaded with": downloadedAs,
      }),
    );
    return reply(saved, text);
  },
});

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
