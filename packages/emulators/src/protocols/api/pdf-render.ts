// A protocol as a real PDF made with pdfkit: title, authors, DOI, dates, description, guidelines,
// materials and the numbered steps under their section headings, with "page X of Y" footers.
import PDFDocument from "pdfkit";
import type { Protocol } from "../model.js";

/**
 * The view options of the PDF (fact sheet §9: `compact_view`, `only_materials`, `only_steps`,
 * `only_commands`): compact leaves out the description and guidelines; each `only_` keeps that part alone
 * (the title block stays), the first one given winning.
 */
export interface PdfView {
  compact: boolean;
  only: "materials" | "steps" | "commands" | undefined;
}

export const FULL_VIEW: PdfView = { compact: false, only: undefined };

/** The view a query asks for: a flag counts when it is 1 or true (the value form is not recorded). */
export function pdfViewOf(query: URLSearchParams): PdfView {
  const on = (name: string) => ["1", "true"].includes((query.get(name) ?? "").toLowerCase());
  const only = (["materials", "steps", "commands"] as const).find((part) => on(`only_${part}`));
  return { compact: on("compact_view"), only };
}

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

/** Lines of the steps that are commands: code in backticks, one per line, with the step's number. */
function commands(doc: PDFKit.PDFDocument, protocol: Protocol): void {
  heading(doc, "Commands");
  const found = protocol.steps.flatMap((step, i) =>
    [...step.text.matchAll(/`([^`\n]+)`/g)].map((m) => `Step ${i + 1}: ${m[1] ?? ""}`),
  );
  body(doc, found.length > 0 ? found.join("\n") : "This protocol has no commands.");
}

function materials(doc: PDFKit.PDFDocument, protocol: Protocol): void {
  heading(doc, "Materials");
  const lines = protocol.materials.map((m) => {
    const amount = m.amount ? ` (${m.amount})` : "";
    return `•  ${m.name}${amount} – ${m.vendor}, catalog #${m.sku}`;
  });
  if (protocol.materialsText) lines.push(protocol.materialsText);
  body(doc, lines.length > 0 ? lines.join("\n") : "No materials listed.");
}

export function renderProtocolPdf(protocol: Protocol, view: PdfView = FULL_VIEW): Promise<RenderedPdf> {
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
  if (view.only === "materials") materials(doc, protocol);
  else if (view.only === "commands") commands(doc, protocol);
  else if (view.only === "steps") steps(doc, protocol);
  else {
    if (!view.compact && protocol.description) {
      heading(doc, "Abstract");
      body(doc, protocol.description);
    }
    if (!view.compact && protocol.guidelines) {
      heading(doc, "Guidelines");
      body(doc, protocol.guidelines);
    }
    if (protocol.materials.length > 0 || protocol.materialsText) materials(doc, protocol);
    if (protocol.steps.length > 0) steps(doc, protocol);
  }
  const pageCount = footers(doc, protocol);
  doc.end();
  return done.then((bytes) => ({ bytes, pageCount }));
}

/**
 * Each PDF is made once per state of its protocol (a write bumps its revision) and view; a bound keeps
 * memory flat.
 */
export class PdfCache {
  #pdfs = new Map<string, Promise<RenderedPdf>>();

  constructor(private readonly capacity = 64) {}

  get(protocol: Protocol, view: PdfView = FULL_VIEW): Promise<RenderedPdf> {
    const key = `${protocol.id}:${protocol.revision}:${view.compact}:${view.only ?? ""}`;
    let pdf = this.#pdfs.get(key);
    if (!pdf) {
      pdf = renderProtocolPdf(protocol, view);
      this.#pdfs.set(key, pdf);
      pdf.catch(() => this.#pdfs.delete(key));
      const oldest = this.#pdfs.keys().next().value;
      if (this.#pdfs.size > this.capacity && oldest !== undefined) this.#pdfs.delete(oldest);
    }
    return pdf;
  }
}
