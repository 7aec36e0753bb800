// The notebook, assay and workflow records of the platform, checked on arrival with the same lenient
// rules as platform.ts: every field optional, null accepted where a value may be missing, a field of an
// unexpected type dropped, unknown fields kept for the json format.
import { z } from "zod";
import { archiveRecord, flag, integer, lenient, list, partySummary, text } from "./platform.js";

const party = z.looseObject({ id: text, handle: text, name: text });
const idAndName = lenient(z.looseObject({ id: text, name: text }).nullable());

export const entryLinkSchema = z.looseObject({ id: text, type: text, webURL: text });
export type EntryLink = z.infer<typeof entryLinkSchema>;

const tableCell = z.looseObject({ text, link: lenient(entryLinkSchema.nullable()) });
export const entryTableSchema = z.looseObject({
  name: text,
  columnLabels: list(z.string().nullable()),
  rows: list(z.looseObject({ cells: list(tableCell) })),
});

/** One note part of any type; which fields mean something depends on `type`. */
export const notePartSchema = z.looseObject({
  type: text,
  indentation: integer,
  text,
  checked: flag,
  links: list(entryLinkSchema),
  table: lenient(entryTableSchema.nullable()),
  name: text,
  assayRunId: text,
  assayRunSchemaId: text,
  assayResultSchemaId: text,
  externalFileId: text,
});
export type NotePart = z.infer<typeof notePartSchema>;

export const entryDaySchema = z.looseObject({ date: text, title: text, notes: list(notePartSchema) });
export type EntryDay = z.infer<typeof entryDaySchema>;

const reviewRecord = lenient(z.looseObject({ status: text, comment: text }).nullable());

export const entrySchema = z.looseObject({
  id: text,
  displayId: text,
  name: text,
  folderId: text,
  authors: list(party),
  creator: partySummary,
  createdAt: text,
  modifiedAt: text,
  entryTemplateId: text,
  reviewRecord,
  webURL: text,
  archiveRecord,
  days: list(entryDaySchema),
});
export type Entry = z.infer<typeof entrySchema>;

/** getEntry answers {entry: Entry}. */
export const entryByIdSchema = z.looseObject({ entry: lenient(entrySchema.nullable()) });

export const entryTemplateSchema = z.looseObject({
  id: text,
  name: text,
  templateCollectionId: text,
  creator: partySummary,
  createdAt: text,
  modifiedAt: text,
  webURL: text,
  days: list(z.looseObject({ day: integer, title: text, notes: list(notePartSchema) })),
});
export type EntryTemplate = z.infer<typeof entryTemplateSchema>;

const unit = lenient(z.looseObject({ id: text, name: text, symbol: text }).nullable());
export const fieldDefinitionSchema = z.looseObject({
  id: text,
  name: text,
  type: text,
  isRequired: flag,
  isMulti: flag,
  unit,
  decimalPrecision: lenient(z.number().nullable()),
});
export type FieldDefinition = z.infer<typeof fieldDefinitionSchema>;

export const assaySchemaSchema = z.looseObject({
  id: text,
  name: text,
  type: text,
  systemName: text,
  fieldDefinitions: list(fieldDefinitionSchema),
  archiveRecord,
});
export type AssaySchema = z.infer<typeof assaySchemaSchema>;

/** A field value: `value` may be text, a number, a flag, a list or an object (a link's id is text). */
export const fieldValueSchema = z.looseObject({
  value: lenient(
    z
      .union([z.string(), z.number(), z.boolean(), z.array(z.unknown()), z.record(z.string(), z.unknown())])
      .nullable(),
  ),
  type: text,
  displayValue: text,
  textValue: text,
});
export type FieldValue = z.infer<typeof fieldValueSchema>;
const fields = lenient(z.record(z.string(), fieldValueSchema).nullable());

export const assayRunSchema = z.looseObject({
  id: text,
  schema: idAndName,
  fields,
  createdAt: text,
  creator: partySummary,
  entryId: text,
  projectId: text,
  isReviewed: flag,
  validationStatus: text,
  archiveRecord,
});
export type AssayRun = z.infer<typeof assayRunSchema>;

export const assayResultSchema = z.looseObject({
  id: text,
  schema: idAndName,
  fields,
  createdAt: text,
  modifiedAt: text,
  creator: partySummary,
  entryId: text,
  projectId: text,
  isReviewed: flag,
  archiveRecord,
});
export type AssayResult = z.infer<typeof assayResultSchema>;

export const workflowTaskSchema = z.looseObject({
  id: text,
  displayId: text,
  assignee: partySummary,
  responsibleParties: list(party),
  status: lenient(z.looseObject({ id: text, displayName: text, statusType: text }).nullable()),
  schema: idAndName,
  workflowTaskGroup: lenient(z.looseObject({ id: text, displayId: text, name: text }).nullable()),
  fields,
  scheduledOn: text,
  executionOrigin: lenient(z.looseObject({ type: text, entryId: text }).nullable()),
  createdAt: text,
  modifiedAt: text,
  webURL: text,
  archiveRecord,
});
export type WorkflowTask = z.infer<typeof workflowTaskSchema>;

export const teamSchema = z.looseObject({ id: text, name: text });
export type LabTeam = z.infer<typeof teamSchema>;

export const requestSchemaSummary = z.looseObject({ id: text, name: text });

export const labRequestSchema = z.looseObject({
  id: text,
  displayId: text,
  schema: idAndName,
  requestStatus: text,
  requestor: partySummary,
  creator: partySummary,
  assignees: list(z.looseObject({ user: partySummary, team: idAndName })),
  projectId: text,
  fields,
  scheduledOn: text,
  createdAt: text,
  webURL: text,
});
export type LabRequest = z.infer<typeof labRequestSchema>;
