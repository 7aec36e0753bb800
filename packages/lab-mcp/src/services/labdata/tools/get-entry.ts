import { z } from "zod";
import { offset, responseFormat } from "../../../core/inputs.js";
import { json } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { OTHERS_WROTE } from "../../../core/untrusted-text.js";
import { linkNames } from "../api/link-names.js";
import * as notebook from "../api/notebook.js";
import type { LabdataClient } from "../client.js";
import { entryMarkdown } from "../format/entry-markdown.js";
import { ENTRY, pastedId } from "../pasted-id.js";
import { entryBrief } from "../records/brief.js";

/** Characters of markdown per answer; the rest is read with offset. */
export const ENTRY_PART_CHARS = 8000;

/**
 * The part of `text` from `offset`, of about ENTRY_PART_CHARS: cut between blocks (after a blank line),
 * so that a table, a list or a paragraph reads whole; only a block longer than most of a part is cut
 * inside, at a line end (a table between its rows: see continuedPart).
 */
export function entryPart(text: string, offset: number): { part: string; next: number | null } {
  if (offset + ENTRY_PART_CHARS >= text.length) return { part: text.slice(offset), next: null };
  const window = text.slice(offset, offset + ENTRY_PART_CHARS);
  const blockEnd = window.lastIndexOf("\n\n");
  const lineEnd = window.lastIndexOf("\n");
  const end =
    offset +
    (blockEnd > ENTRY_PART_CHARS / 4
      ? blockEnd + 2
      : lineEnd > ENTRY_PART_CHARS / 2
        ? lineEnd + 1
        : ENTRY_PART_CHARS);
  return { part: text.slice(offset, end), next: end };
}

/** The line of `text` that starts at `start`, without its line end. */
function lineAt(text: string, start: number): string {
  const end = text.indexOf("\n", start);
  return text.slice(start, end === -1 ? undefined : end);
}

/**
 * A part that starts inside a line (a long line cut where no line end was near) goes on marked: the rest
 * of a table row as a row ("| "), the rest of any other line quoted ("> "), since what a long line holds
 * is others' text (a quoted note, a table cell, a name) and must not read as a line of ours. A part that starts between the
 * rows of a table too long for one part repeats the table's header row, so its columns stay named.
 */
export function continuedPart(text: string, offset: number, part: string): string {
  if (offset === 0) return part;
  if (text[offset - 1] === "\n") {
    if (!part.startsWith("|")) return part;
    let start = text.lastIndexOf("\n", offset - 2) + 1;
    if (!text.startsWith("|", start)) return part;
    while (start > 0 && text.startsWith("|", text.lastIndexOf("\n", start - 2) + 1)) {
      start = text.lastIndexOf("\n", start - 2) + 1;
    }
    const header = lineAt(text, start);
    const rule = lineAt(text, start + header.length + 1);
    return `(The table goes on.)\n\n${header}\n${rule}\n${part}`;
  }
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return text.startsWith("|", lineStart) ? `| …${part}` : `> ${part}`;
}

export const getEntry = defineTool({
  name: "labdata_get_entry",
  title: "Get Notebook Entry",
  description:
    "Read one notebook entry: its facts, then each day with its notes, checklists ([x]/[ ]), tables and " +
    `linked records as Name (id). Cut after about ${ENTRY_PART_CHARS} characters: call again with the offset given.`,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "notebook",
  input: {
    id: pastedId("Id (etr_...) or its page's address.", ENTRY),
    // The conventions' offset, counted in characters of the markdown: next_offset reads on.
    offset,
    response_format: responseFormat,
  },
  output: { ...entryBrief.shape, next_offset: z.number().int().nullable() },
  async handler({ id, offset, response_format }, ctx, client: LabdataClient) {
    const entry = await notebook.getEntry(client, id, ctx);
    if (response_format === "json") {
      // The whole record, uncut: nothing to read on.
      const whole = { ...entry, next_offset: null };
      return reply(whole, json(whole));
    }
    const text = entryMarkdown(entry, await linkNames(client, entry, ctx), id);
    if (offset >= text.length && offset > 0) {
      return reply(
        { ...entry, next_offset: null },
        `The entry's markdown has ${text.length} characters: offset ${offset} is past its end. Use a smaller offset.`,
      );
    }
    const { part, next } = entryPart(text, offset);
    const lines = [
      offset > 0 && `(Continued from character ${offset} of ${text.length}.)\n`,
      offset > 0 && /^>/m.test(part) && OTHERS_WROTE,
      continuedPart(text, offset, part).trimEnd(),
      next !== null &&
        `\n(Cut at character ${next} of ${text.length}. Read on with labdata_get_entry id=${id} offset=${next}.)`,
    ].filter(Boolean);
    return reply({ ...entry, next_offset: next }, lines.join("\n"));
  },
});
