// How a notebook entry reads to an agent: its facts, then each day with its notes in order: text and
// lists as markdown, checklists as [x] / [ ], tables as markdown tables, linked records and assay runs
// and results tables as "Name (id)". Names of linked records come from `names` (looked up by the
// caller); a link without one reads "type id". What the notes say was written by people: each note's
// text is a quoted block (core/untrusted-text.ts), names stay on the line of ours they sit in.
import { fieldList, heading, markdown, utcTime } from "../../../core/render.js";
import { fenceFor, OTHERS_WROTE, oneLine, quoted } from "../../../core/untrusted-text.js";
import type { Entry, EntryLink, NotePart } from "../records/notebook.js";
import { displayName, nameAndId } from "./labels.js";
import { markdownTable } from "./table-cells.js";

/** Names of linked records by id (sequences, entries, runs, result schemas). */
export type LinkNames = Map<string, string>;

const REVIEW: Record<string, string> = {
  IN_PROGRESS: "in progress",
  NEEDS_REVIEW: "needs review",
  ACCEPTED: "accepted",
  REJECTED: "rejected",
  RETRACTED: "retracted",
};

function linkLabel(link: EntryLink, names: LinkNames): string | undefined {
  if (link.type === "link") return link.webURL ?? undefined;
  if (!link.id) return undefined;
  const name = names.get(link.id);
  return name ? nameAndId(name, link.id) : `${(link.type ?? "record").replace(/_/g, " ")} ${link.id}`;
}

function linksLine(links: EntryLink[] | undefined, names: LinkNames): string | undefined {
  const labels = (links ?? []).map((link) => linkLabel(link, names)).filter(Boolean);
  return labels.length > 0 ? `  Linked: ${oneLine(labels.join(", "))}` : undefined;
}

function withLinks(line: string, note: NotePart, names: LinkNames): string {
  const links = linksLine(note.links, names);
  return links ? `${line}\n${links}` : line;
}

function tableOf(note: NotePart, names: LinkNames): string {
  const table = note.table;
  const rows = table?.rows ?? [];
  const width = Math.max(table?.columnLabels?.length ?? 0, ...rows.map((row) => row.cells?.length ?? 0), 1);
  const header = Array.from({ length: width }, (_, i) => table?.columnLabels?.[i] ?? `Column ${i + 1}`);
  const body = rows.map((row) =>
    (row.cells ?? []).map((c) => {
      const value = c.text ?? "";
      return c.link?.id ? nameAndId(value || names.get(c.link.id), c.link.id) : value;
    }),
  );
  const caption = note.text?.trim() || table?.name;
  return markdown(
    caption ? `**${oneLine(caption)}**` : undefined,
    rows.length > 0 ? markdownTable(header, body) : `(empty table: ${oneLine(header.join(", "))})`,
    linksLine(note.links, names),
  );
}

/** A note's text as a quoted block; an empty text stays empty (an empty paragraph of the entry). */
function quotedOrEmpty(text: string): string {
  return text.trim() ? quoted(text) : "";
}

/** One note as markdown; `number` counts the items of a numbered list. */
function noteMarkdown(note: NotePart, names: LinkNames, number: number): string {
  const indent = "  ".repeat(Math.max(0, (note.indentation ?? 0) - (note.type?.startsWith("list_") ? 1 : 0)));
  const text = note.text ?? "";
  switch (note.type) {
    case "text":
      return withLinks(quotedOrEmpty(text), note, names);
    case "code": {
      const fence = fenceFor(text);
      return withLinks(quoted(`${fence}\n${text}\n${fence}`), note, names);
    }
    case "list_bullet":
      return withLinks(quoted(`${indent}- ${text}`), note, names);
    case "list_number":
      return withLinks(quoted(`${indent}${number}. ${text}`), note, names);
    case "list_checkbox":
      return withLinks(quoted(`${indent}- [${note.checked ? "x" : " "}] ${text}`), note, names);
    case "table":
      return tableOf(note, names);
    case "text_box":
      return withLinks(
        markdown(note.name ? `**${oneLine(note.name)}**` : undefined, quotedOrEmpty(text)),
        note,
        names,
      );
    case "assay_run": {
      const id = note.assayRunId;
      return id ? `Assay run: ${nameAndId(names.get(id) ?? "assay run", id)}` : "Assay run (not yet created)";
    }
    case "results_table": {
      const schemaId = note.assayResultSchemaId;
      const label = schemaId ? nameAndId(names.get(schemaId) ?? "assay results", schemaId) : "assay results";
      return `Results table: ${label}; read the results with labdata_list_assay_results.`;
    }
    case "external_file":
      // The caption is the note's text; its links follow.
      return withLinks(
        markdown(
          `Attached file${note.externalFileId ? ` ${oneLine(note.externalFileId)}` : ""}`,
          text.trim() ? quoted(text) : undefined,
        ),
        note,
        names,
      );
    default:
      return otherNote(note, names);
  }
}

/** Identifiers a note of another kind carries (an app canvas, a chart, a structured table, its schemas). */
function noteFacts(note: NotePart): string[] {
  const facts: string[] = [];
  for (const [key, value] of Object.entries(note)) {
    if (
      typeof value === "string" &&
      value &&
      key !== "type" &&
      (key.endsWith("Id") || key === "apiId" || key === "mode")
    )
      facts.push(
        `${key
          .replace(/Id$/, "")
          .replace(/([A-Z])/g, " $1")
          .toLowerCase()} ${value}`,
      );
  }
  const chart = (note as { chart?: { id?: unknown } }).chart;
  if (chart && typeof chart.id === "string") facts.push(`chart ${chart.id}`);
  return facts;
}

/**
 * The other note kinds of the document (app canvas, chart, lookup, registration, plate and box
 * creation, mixture prep, inventory tables...): what kind it is and what it names, its text, its links.
 */
function otherNote(note: NotePart, names: LinkNames): string {
  const kind = (note.type ?? "unknown").replace(/_/g, " ");
  const facts = noteFacts(note);
  const title = `(${kind} note${facts.length > 0 ? `: ${facts.join(", ")}` : ""})`;
  const text = note.text?.trim();
  return withLinks(markdown(text ? quoted(text) : undefined, oneLine(title)), note, names);
}

function authorsOf(entry: Entry): string | undefined {
  const authors = (entry.authors ?? []).map((a) => nameAndId(a.name, a.id));
  return authors.length > 0 ? authors.join(", ") : undefined;
}

export function entryFacts(entry: Entry): string[] {
  return fieldList({
    "Display ID": entry.displayId,
    Authors: authorsOf(entry),
    Folder: entry.folderId,
    Review: entry.reviewRecord?.status
      ? (REVIEW[entry.reviewRecord.status] ?? entry.reviewRecord.status)
      : undefined,
    Template: entry.entryTemplateId,
    Created: entry.createdAt ? utcTime(entry.createdAt) : undefined,
    Modified: entry.modifiedAt ? utcTime(entry.modifiedAt) : undefined,
    Archived: entry.archiveRecord ? (entry.archiveRecord.reason ?? "yes") : undefined,
    "Web URL": entry.webURL,
  });
}

/** The whole entry as markdown (the caller cuts it into parts). */
export function entryMarkdown(entry: Entry, names: LinkNames, requestedId?: string): string {
  const days = (entry.days ?? []).map((day) => {
    let number = 0;
    const notes = (day.notes ?? []).map((note) => {
      number = note.type === "list_number" ? number + 1 : 0;
      return noteMarkdown(note, names, number);
    });
    const title = [day.date, day.title].filter((part) => part?.trim()).join(": ") || "Undated";
    return markdown(heading(2, title), notes.length > 0 ? notes.join("\n\n") : "(no notes)");
  });
  return markdown(
    heading(1, nameAndId(entry.name, entry.id || requestedId)),
    entryFacts(entry),
    days.some((day) => /^>/m.test(day)) && OTHERS_WROTE,
    days.length > 0 ? days.join("\n\n") : "(the entry has no days)",
  );
}

/** One line of an entry list. */
export function entryLine(entry: Entry): string {
  const authors = (entry.authors ?? []).map((a) => displayName(a.name)).join(", ");
  const dates = (entry.days ?? []).map((d) => d.date).filter(Boolean);
  const span = dates.length > 1 ? `${dates[0]} to ${dates.at(-1)}` : dates[0];
  const facts = [
    entry.displayId,
    entry.modifiedAt && `modified ${utcTime(entry.modifiedAt)}`,
    authors && `by ${authors}`,
    span && `days ${span}`,
    entry.folderId && `folder ${entry.folderId}`,
  ].filter(Boolean);
  return `- **${nameAndId(entry.name, entry.id)}**${facts.length > 0 ? `: ${oneLine(facts.join("; "))}` : ""}`;
}

/** The ids an entry links to whose names are worth a lookup, by kind. */
export function linkedIds(entry: Entry): {
  sequences: string[];
  entries: string[];
  runs: string[];
  resultSchemas: string[];
} {
  const sequences = new Set<string>();
  const entries = new Set<string>();
  const runs = new Set<string>();
  const resultSchemas = new Set<string>();
  for (const day of entry.days ?? []) {
    for (const note of day.notes ?? []) {
      for (const link of note.links ?? []) {
        if (link.id && link.type === "dna_sequence") sequences.add(link.id);
        if (link.id && link.type === "entry") entries.add(link.id);
      }
      if (note.assayRunId) runs.add(note.assayRunId);
      if (note.assayResultSchemaId) resultSchemas.add(note.assayResultSchemaId);
    }
  }
  return {
    sequences: [...sequences],
    entries: [...entries],
    runs: [...runs],
    resultSchemas: [...resultSchemas],
  };
}
