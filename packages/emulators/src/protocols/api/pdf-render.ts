// A protocol as a real PDF made with pdfkit: title, authors, DOI, dates, description, guidelines,
// materials and the numbered steps under their section headings, with "page X of Y" footers.
import PDFDocument from "pdfkit";
import type { Protocol } from "../model.js";

export interface RenderedPdf {
  bytes: Buffer;
  pageCount: number;
}

const MARGIN = 60;
const STEP_INDENT = 30;
const INK = "#1d2730";
const MUTED = "#5a6570";
const ACCENT = "#1565c0";

// Characters of the standard fonts' encoding (WinAnsi) beyond Latin-1; anything else is spelt out or
// replaced, because a standard font would print a wrong glyph for it.
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
const SPELT_OUT: Record<string, string> = {
  "≥": ">=",
  "≤": "<=",
  "→": "->",
  "←": "<-",
  "−": "-",
  μ: "µ",
  α: "alpha",
  β: "beta",
  γ: "gamma",
  Δ: "delta",
  κ: "kappa",
};

export function printable(text: string): string {
  let out = "";
  for (const ch of text.normalize("NFC")) {
    const code = ch.codePointAt(0) ?? 0;
    if (
      ch === "\n" ||
      (code >= 0x20 && code <= 0x7e) ||
      (code >= 0xa0 && code <= 0xff) ||
      WIN_ANSI_EXTRA.has(ch)
    ) {
      out += ch;
    } else {
      out += SPELT_OUT[ch] ?? (ch === "\t" ? " " : "?");
    }
  }
  return out;
}

function isoDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 10);
}

function heading(doc: PDFKit.PDFDocument, text: string): void {
  doc.moveDown(0.8).font("Helvetica-Bold").fontSize(13).fillColor(INK).text(text, MARGIN);
  doc.moveDown(0.3);
}

function body(doc: PDFKit.PDFDocument, text: string): void {
  doc
    .font("Helvetica")
    .fontSize(10.5)
    .fillColor(INK)
    .text(printable(text), MARGIN, undefined, { lineGap: 2 });
}

function front(doc: PDFKit.PDFDocument, protocol: Protocol): void {
  doc.font("Helvetica-Bold").fontSize(20).fillColor(INK).text(printable(protocol.title), { lineGap: 2 });
  doc.moveDown(0.4);
  const authors = protocol.authors.map((a) => (a.affiliation ? `${a.name} (${a.affiliation})` : a.name));
  doc
    .font("Helvetica")
    .fontSize(10.5)
    .fillColor(MUTED)
    .text(printable(authors.join(", ")));
  doc.moveDown(0.3);
  const version = protocol.versions[protocol.versions.length - 1]?.versionId ?? 1;
  const when =
    protocol.publishedOn === null
      ? `Created ${isoDate(protocol.createdOn)}`
      : `Published ${isoDate(protocol.publishedOn)}`;
  doc.fillColor(ACCENT).text(protocol.doi ? `DOI: ${protocol.doi}` : "Private protocol (no DOI)");
  doc.fillColor(MUTED).text(`${when} · Version ${version} · ${protocol.steps.length} steps`);
}

function steps(doc: PDFKit.PDFDocument, protocol: Protocol): void {
  heading(doc, "Steps");
  let section: string | null = null;
  protocol.steps.forEach((step, i) => {
    if (step.section && step.section !== section) {
      section = step.section;
      doc
        .moveDown(0.5)
        .font("Helvetica-Bold")
        .fontSize(11.5)
        .fillColor(ACCENT)
        .text(printable(section), MARGIN);
      doc.moveDown(0.2);
    }
    // Keep a step's number on the same page as the first lines of its text.
    if (doc.y > doc.page.height - doc.page.margins.bottom - 40) doc.addPage();
    const top = doc.y;
    doc
      .font("Helvetica-Bold")
      .fontSize(10.5)
      .fillColor(INK)
      .text(`${i + 1}.`, MARGIN, top);
    doc.font("Helvetica").text(printable(step.text), MARGIN + STEP_INDENT, top, {
      width: doc.page.width - 2 * MARGIN - STEP_INDENT,
      lineGap: 2,
    });
    doc.moveDown(0.5);
  });
}

function footers(doc: PDFKit.PDFDocument, protocol: Protocol): number {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would otherwise make pdfkit start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font("Helvetica")
      .fontSize(8.5)
      .fillColor(MUTED)
      .text(`${printable(protocol.uri)} · page ${i + 1} of ${count}`, MARGIN, doc.page.height - 40, {
        width: doc.page.width - 2 * MARGIN,
        align: "center",
        lineBreak: false,
      });
    doc.page.margins.bottom = bottom;
  }
  return count;
}

export function renderProtocolPdf(protocol: Protocol): Promise<RenderedPdf> {
  const author = protocol.authors.map((a) => a.name).join(", ");
  const doc = new PDFDocument({
    size: "LETTER",
    margin: MARGIN,
    bufferPages: true,
    info: {
      Title: printable(protocol.title),
      Author: printable(author),
      Subject: protocol.doi ?? "Private protocol",
      Creator: "lab-mcp protocols emulator",
      CreationDate: new Date(protocol.createdOn * 1000),
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  front(doc, protocol);
  if (protocol.description) {
    heading(doc, "Abstract");
    body(doc, protocol.description);
  }
  if (protocol.guidelines) {
    heading(doc, "Guidelines");
    body(doc, protocol.guidelines);
  }
  if (protocol.materials.length > 0) {
    heading(doc, "Materials");
    body(doc, protocol.materials.map((m) => `•  ${m.name} – ${m.vendor}, catalog #${m.sku}`).join("\n"));
  }
  if (protocol.steps.length > 0) steps(doc, protocol);
  const pageCount = footers(doc, protocol);
  doc.end();
  return done.then((bytes) => ({ bytes, pageCount }));
}

/** Protocols never change once added, so each PDF is made once; a bound keeps memory flat. */
export class PdfCache {
  #pdfs = new Map<number, Promise<RenderedPdf>>();

  constructor(private readonly capacity = 64) {}

  get(protocol: Protocol): Promise<RenderedPdf> {
    let pdf = this.#pdfs.get(protocol.id);
    if (!pdf) {
      pdf = renderProtocolPdf(protocol);
      this.#pdfs.set(protocol.id, pdf);
      pdf.catch(() => this.#pdfs.delete(protocol.id));
      const oldest = this.#pdfs.keys().next().value;
      if (this.#pdfs.size > this.capacity && oldest !== undefined) this.#pdfs.delete(oldest);
    }
    return pdf;
  }
}
