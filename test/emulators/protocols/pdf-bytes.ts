// Just enough PDF reading for tests, on the bytes pdfkit writes: the page objects, the page tree's count,
// and the text shown by the (Flate-compressed) content streams, whitespace removed for easy matching.
import { inflateSync } from "node:zlib";

export function pageObjectCount(pdf: Buffer): number {
  return (pdf.toString("latin1").match(/\/Type \/Page\s/g) ?? []).length;
}

/** The /Count of the page tree root (/Type /Pages). */
export function pageTreeCount(pdf: Buffer): number {
  const match = /\/Type \/Pages\s+\/Count (\d+)/.exec(pdf.toString("latin1"));
  return match ? Number(match[1]) : -1;
}

function contentStreams(pdf: Buffer): string[] {
  const text = pdf.toString("latin1");
  const streams: string[] = [];
  const pattern = /\/FlateDecode\s*>>\s*stream\r?\n/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf("endstream", start);
    streams.push(inflateSync(pdf.subarray(start, end)).toString("latin1"));
  }
  return streams;
}

/** Every string drawn by TJ/Tj, decoded from pdfkit's hex form (WinAnsi, read as Latin-1). */
export function shownText(pdf: Buffer): string {
  let out = "";
  for (const stream of contentStreams(pdf)) {
    for (const hex of stream.matchAll(/<([0-9a-fA-F]*)>/g)) {
      out += Buffer.from(hex[1] ?? "", "hex").toString("latin1");
    }
  }
  return out;
}

export function squash(text: string): string {
  return text.replace(/\s+/g, "");
}
