// The text a PDF made with the standard fonts shows: each content stream inflated, the hex strings of
// its TJ arrays decoded (WinAnsi, read as Latin-1), one line per text object. Enough to tell which parts
// of a protocol a PDF holds; not a general PDF reader. And the read of a protocol's PDF resource.
import { inflateSync } from "node:zlib";
import { expect } from "vitest";

export function pdfText(bytes: Uint8Array): string {
  const source = Buffer.from(bytes).toString("latin1");
  const lines: string[] = [];
  for (const match of source.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = source.indexOf("endstream", start);
    if (end < 0) continue;
    let content: string;
    try {
      content = inflateSync(Buffer.from(source.slice(start, end), "latin1")).toString("latin1");
    } catch {
      continue;
    }
    for (const array of content.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
      const hex = [...(array[1] ?? "").matchAll(/<([0-9a-fA-F]*)>/g)].map((m) => m[1] ?? "").join("");
      lines.push(Buffer.from(hex, "hex").toString("latin1"));
    }
  }
  return lines.join("\n");
}

/** Reads a protocol's PDF resource (`uri` is the protocol's), collecting the progress messages. */
/** What readPdfResource needs of a client, of either SDK. */
interface ResourceReader {
  readResource(
    params: { uri: string },
    options: { onprogress: (update: { message?: string }) => void; timeout: number },
  ): Promise<{ contents: unknown[] }>;
}

export async function readPdfResource(
  client: ResourceReader,
  uri: string,
  progress: string[] = [],
): Promise<Buffer> {
  const { contents } = await client.readResource(
    { uri: `protocols://protocols/${uri}/pdf` },
    { onprogress: (update) => progress.push(update.message ?? ""), timeout: 60_000 },
  );
  const [content] = contents as Array<{ mimeType?: string; blob?: string }>;
  expect(content?.mimeType).toBe("application/pdf");
  return Buffer.from(content?.blob ?? "", "base64");
}
