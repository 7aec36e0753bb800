// A downloaded PDF on disk: a safe file name made from the protocol's URI, never overwriting another
// file, and the page count read from the document. The PDF is written to a new temporary file (exclusive
// create) and renamed to its name; an existing path is only ever opened to read a regular file, without
// following a link or waiting on a pipe.
import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { chmod, lstat, mkdir, open, rename, rm, writeFile } from "node:fs/promises";
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
 * file; a different file of that name is kept and the new one gets "-2", "-3", ... Anything else of that
 * name (a FIFO, a link, a folder) is refused and left alone: it was put there by someone else, reading a
 * FIFO would hang and a link would lead elsewhere, and replacing it would destroy what is not ours.
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
    const existing = await compareWith(path, bytes);
    if (existing === "same") return path;
    if (existing === "different") continue;
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

/** Opens for reading only, without following a link, and returns at once on a FIFO instead of waiting. */
const READ_SAFELY = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Whether `path` is free, or a regular file with these bytes or others; refuses anything else. */
async function compareWith(path: string, bytes: Uint8Array): Promise<"free" | "same" | "different"> {
  const entry = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (!entry) return "free";
  if (!entry.isFile()) throw new NotAFileError(path, entry);
  if (entry.size !== bytes.length) return "different";
  // What lstat saw may have been swapped since: the opened file is checked again.
  const handle = await open(path, READ_SAFELY).catch((error: NodeJS.ErrnoException) => {
    throw error.code === "ELOOP" ? new NotAFileError(path) : error;
  });
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw new NotAFileError(path, opened);
    if (opened.size !== bytes.length) return "different";
    return (await handle.readFile()).equals(bytes) ? "same" : "different";
  } finally {
    await handle.close();
  }
}

class NotAFileError extends ActionableError {
  /** `entry` undefined: a symbolic link (open refused to follow it). */
  constructor(path: string, entry?: Stats) {
    super(
      `Cannot save the PDF as ${path}: something else is there (${kindOf(entry)}), and it was left as it is. ` +
        "Move it away, or set PROTOCOLS_DOWNLOAD_DIR to another folder, then try again.",
    );
  }
}

function kindOf(entry: Stats | undefined): string {
  if (!entry || entry.isSymbolicLink()) return "a symbolic link";
  if (entry.isFIFO()) return "a named pipe";
  if (entry.isDirectory()) return "a folder";
  if (entry.isSocket()) return "a socket";
  if (entry.isCharacterDevice() || entry.isBlockDevice()) return "a device";
  return "not a regular file";
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
