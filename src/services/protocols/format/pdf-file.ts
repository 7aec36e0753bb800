// A downloaded PDF on disk: a safe file name made from the protocol's URI, never overwriting another
// file, and the page count read from the document.
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ActionableError } from "../../../core/errors.js";

const MAX_NAME_CHARS = 120;
const MAX_SUFFIX = 99;

/** Letters, digits, "-", "_" and "." only; no leading dot; never empty. */
export function safeFileStem(uri: string, fallback: string): string {
  const stem = uri
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, MAX_NAME_CHARS)
    .replace(/[-.]+$/g, "");
  return stem || fallback;
}

/**
 * Saves `bytes` as `<stem>.pdf` in `dir` (created if needed). The same PDF again lands on the same
 * file; a different file of that name is kept and the new one gets "-2", "-3", ...
 */
export async function savePdf(
  dir: string,
  stem: string,
  bytes: Uint8Array,
  options: { private: boolean },
): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (let n = 1; n <= MAX_SUFFIX; n++) {
    const path = join(dir, `${stem}${n === 1 ? "" : `-${n}`}.pdf`);
    const existing = await readFile(path).catch(() => undefined);
    if (existing?.equals(bytes)) return path;
    if (existing) continue;
    const temporary = join(dir, `.${stem}.${randomBytes(6).toString("hex")}.part`);
    try {
      await writeFile(temporary, bytes, { flag: "wx", mode: options.private ? 0o600 : 0o644 });
      if (options.private) await chmod(temporary, 0o600);
      await rename(temporary, path);
    } finally {
      await rm(temporary, { force: true });
    }
    return path;
  }
  throw new ActionableError(`There are already ${MAX_SUFFIX} different files named ${stem}*.pdf in ${dir}.`);
}

/**
 * Pages of a PDF: the /Count of its page tree, else the number of page objects; undefined when the
 * document keeps them in compressed object streams.
 */
export function pdfPageCount(bytes: Uint8Array): number | undefined {
  const text = Buffer.from(bytes).toString("latin1");
  let count: number | undefined;
  for (const match of text.matchAll(/\/Type\s*\/Pages\b/g)) {
    const around = text.slice(Math.max(0, match.index - 300), match.index + 300);
    for (const found of around.matchAll(/\/Count\s+(\d+)/g)) count = Math.max(count ?? 0, Number(found[1]));
  }
  if (count !== undefined) return count;
  const pages = text.match(/\/Type\s*\/Page\b(?!s)/g)?.length ?? 0;
  return pages > 0 ? pages : undefined;
}
