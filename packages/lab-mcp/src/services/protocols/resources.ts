import { z } from "zod";
import { pageOf } from "../../core/paging.js";
import { defineResource } from "../../core/resource.js";
import { fetchProtocolPdf } from "./api/pdf.js";
import { fetchProtocol, fetchSteps } from "./api/protocols.js";
import type { ProtocolsClient } from "./client.js";
import { protocolMarkdown } from "./format/protocol-markdown.js";
import { stepsMarkdown } from "./format/steps-markdown.js";
import { pdfViewInputs, pdfViewOf, protocolRef } from "./inputs.js";

/** The repository's PDF of a protocol, as bytes: a file the client can read wherever the server runs. */
export const protocolPdfResource = defineResource({
  name: "protocol_pdf",
  uriTemplate: "protocols://protocols/{uri}/pdf{?only,compact_view}",
  title: "Protocol PDF",
  description:
    "One protocol as the repository's PDF (application/pdf). Each read counts against the repository's 5 PDFs " +
    "a minute (3 without sign-in), like protocols_download_pdf; without sign-in give the uri.",
  mimeType: "application/pdf",
  // Public PDFs are anyone's: without a sign-in it reads anonymously.
  credential: "optional",
  params: {
    uri: protocolRef("The protocol's uri (from protocols_search), or its id when signed in."),
    only: pdfViewInputs.only,
    compact_view: z.enum(["true", "false"]).optional().describe("'true': the compact view."),
  },
  async read({ uri, only, compact_view }, ctx, client: ProtocolsClient) {
    const view = pdfViewOf({ only, compact_view: compact_view === "true" });
    return (await fetchProtocolPdf(client, uri, ctx, "the PDF resource", view)).bytes;
  },
});

/** Every step, uncut: where the whole text of long steps can be read at once. */
export const protocolStepsResource = defineResource({
  name: "protocol_steps",
  uriTemplate: "protocols://protocols/{id}/steps",
  title: "Protocol steps",
  description: "All steps of one protocol in order, under their section headings, none cut (markdown).",
  mimeType: "text/markdown",
  params: { id: protocolRef("The protocol's id or uri.") },
  async read({ id }, ctx, client: ProtocolsClient) {
    const steps = await fetchSteps(client, id, ctx);
    if (steps.length === 0) return `Protocol ${id} has no steps.`;
    return stepsMarkdown(id, steps, pageOf("steps", steps, steps.length, 0), { cut: false });
  },
});

export const protocolResource = defineResource({
  name: "protocol",
  uriTemplate: "protocols://protocols/{id}",
  title: "Protocol",
  description:
    "One protocol: title, authors, DOI, description, guidelines, materials and step count (markdown).",
  mimeType: "text/markdown",
  params: { id: protocolRef("The protocol's id or uri.") },
  async read({ id }, ctx, client: ProtocolsClient) {
    return protocolMarkdown(await fetchProtocol(client, id, ctx));
  },
});
