import { z } from "zod";
import { ActionableError } from "../../../core/errors.js";
import { responseFormat } from "../../../core/inputs.js";
import { fieldList, heading, json, markdown, nameWithId } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { fetchProtocolPdf, pdfResourceUri } from "../api/pdf.js";
import { pdfViewSuffix, pdfViewWords } from "../api/pdf-view.js";
import type { ProtocolsClient } from "../client.js";
import { pdfPageCount, safeFileStem, savePdf } from "../format/pdf-file.js";
import { pdfViewInputs, pdfViewOf, protocolRef } from "../inputs.js";

export const downloadPdf = defineTool({
  name: "protocols_download_pdf",
  title: "Download Protocol PDF",
  description:
    "Download a protocol as a PDF: its resource link, size, pages and, over stdio, the saved file. 5 PDFs a " +
    "minute (3 without sign-in), then the call waits. Without sign-in give the uri.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "pdfs",
  // Public PDFs are anyone's: without a sign-in it downloads anonymously.
  credential: "optional",
  input: {
    protocol: protocolRef("Id, uri, DOI or web address."),
    save_file: z
      .boolean()
      .optional()
      .describe("Save it in the server's downloads folder (default: yes over stdio, no over HTTP)."),
    ...pdfViewInputs,
    response_format: responseFormat,
  },
  // What was fetched and where it is: the resource, the file when saved, the protocol; never the
  // credential, only its kind.
  output: {
    path: z.string().nullable(),
    resource_uri: z.string(),
    bytes: z.number(),
    pages: z.number().nullable(),
    protocol_id: z.number().nullable(),
    uri: z.string().optional(),
    title: z.string().nullable(),
    downloaded_as: z.enum(["client_token", "oauth", "anonymous"]),
    view: z.string().optional(),
  },
  async handler({ protocol, save_file, only, compact_view, response_format }, ctx, client: ProtocolsClient) {
    const view = pdfViewOf({ only, compact_view });
    const { config } = client.credentials;
    const save = save_file ?? config.saveFilesByDefault === true;
    if (save && !config.saveFilesByDefault) {
      throw new ActionableError(
        "save_file is for a server on your own computer (stdio): this one is reached over HTTP, so its folder is " +
          "not yours. Leave save_file out and use the PDF resource the answer links to.",
      );
    }
    const { bytes, uri, about, credential } = await fetchProtocolPdf(
      client,
      protocol,
      ctx,
      "protocols_download_pdf",
      view,
    );
    // A partial PDF gets its own name, so that it never lands on the whole one.
    const stem = safeFileStem(uri, `protocol-${about?.id ?? "download"}`) + pdfViewSuffix(view);
    let path: string | null = null;
    if (save) {
      await ctx.progress(0.9, "Saving the PDF");
      path = await savePdf(config.downloadDir, stem, bytes, { private: about ? !about.public : false });
    }
    const pages = pdfPageCount(bytes) ?? null;
    const resourceUri = pdfResourceUri(uri, view);
    const partial = view.only !== undefined || view.compact;
    // No title on the link: the answer's heading and structured copy name the protocol already.
    const file = {
      uri: resourceUri,
      name: `${stem}.pdf`,
      mimeType: "application/pdf",
      body: bytes,
      // A link, not the bytes: the client reads the resource when it wants the PDF itself.
      embed: false,
    };
    const structured = {
      path,
      resource_uri: resourceUri,
      bytes: bytes.length,
      pages,
      protocol_id: about?.id ?? null,
      uri,
      title: about?.title ?? null,
      downloaded_as: credential?.kind ?? ("anonymous" as const),
      ...(partial ? { view: pdfViewWords(view) } : {}),
    };
    if (response_format === "json") return reply(structured, json(structured), [file]);
    const downloadedAs = credential ? credential.description : "anonymously (public protocols only)";
    const name = about ? nameWithId(about.title, about.id) : uri;
    // Named by its id, the protocol's uri shows only inside resource_uri: the copy leaves it there.
    const { uri: _shownInResource, ...named } = structured;
    return reply(
      about ? named : structured,
      markdown(
        heading(1, path ? `PDF saved: ${name}` : `PDF: ${name}`),
        fieldList({
          File: path ?? undefined,
          Resource: resourceUri,
          Size: `${formatSize(bytes.length)} (${bytes.length.toLocaleString("en-US")} bytes)`,
          Pages: pages ?? "unknown",
          Holds: partial ? pdfViewWords(view) : undefined,
          "Downloaded with": downloadedAs,
        }),
      ),
      [file],
    );
  },
});

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
