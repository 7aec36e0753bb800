import { z } from "zod";
import { InvalidInputError } from "../../../core/errors.js";
import { boundedString, identifier } from "../../../core/inputs.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import * as notebook from "../api/notebook.js";
import type { LabdataApi } from "../client.js";
import { dateInput } from "../date-input.js";
import { nameAndId } from "../format/labels.js";
import { entrySchema } from "../notebook-types.js";

const MAX_ITEMS = 50;

const KINDS = {
  text: "text",
  bullets: "list_bullet",
  numbered: "list_number",
  checklist: "list_checkbox",
  code: "code",
} as const;

export const addEntryNote = defineTool({
  name: "labdata_add_entry_note",
  title: "Add Note to Notebook Entry",
  description:
    "Add a note at the end of one day of a notebook entry you may write to (today by default; a day the entry " +
    "lacks is added): a paragraph of text, a code block, or bullets, numbered items or checklist items (one " +
    "per line). Nothing already in the entry changes. Find entry ids with labdata_list_entries.",
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  toolset: "notebook",
  input: {
    entry_id: identifier("Id of the entry (from labdata_list_entries)."),
    text: boundedString({
      description: "What to add. For bullets, numbered and checklist, each non-empty line is one item.",
      max: 20_000,
      multiline: true,
    }),
    kind: z
      .enum(["text", "bullets", "numbered", "checklist", "code"])
      .default("text")
      .describe("How the note reads: 'text' (default), 'bullets', 'numbered', 'checklist' or 'code'."),
    checked: z
      .boolean()
      .default(false)
      .describe("For a checklist: whether the items are ticked (default false)."),
    date: dateInput("Day of the entry to add to, YYYY-MM-DD (default: today on the platform).").optional(),
  },
  output: entrySchema.shape,
  async handler({ entry_id, text, kind, checked, date }, ctx, api: LabdataApi) {
    const type = KINDS[kind];
    const lines = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
    if (type !== "text" && type !== "code" && lines.length > MAX_ITEMS) {
      throw new InvalidInputError(
        `Error: Invalid input for labdata_add_entry_note: text: at most ${MAX_ITEMS} items at once (got ${lines.length}).`,
      );
    }
    const notes =
      type === "text" || type === "code"
        ? [{ type, text }]
        : lines.map((line) => ({ type, text: line, ...(type === "list_checkbox" ? { checked } : {}) }));
    const entry = await notebook.addEntryNotes(api, entry_id, notes, date, ctx);
    const day = date ?? entry.days?.at(-1)?.date ?? "today";
    return reply(
      entry,
      markdown(
        `Added ${notes.length} ${notes.length === 1 ? "note" : "notes"} to ${nameAndId(entry.name, entry.id ?? entry_id)} on ${day}.`,
        heading(2, "Added"),
        notes.map((note) =>
          note.type === "list_checkbox"
            ? `- [${checked ? "x" : " "}] ${note.text}`
            : note.type === "code"
              ? `\`\`\`\n${note.text}\n\`\`\``
              : note.type === "text"
                ? note.text
                : `- ${note.text}`,
        ),
      ),
    );
  },
});
