// The records as a markdown answer's structured copy carries them: the ids, names and figures its
// text shows (core/server/structured-copy.ts cuts a record down to what its tool's output declares).
// response_format=json carries the whole record; these stay small so that tools/list does too.
import { z } from "zod";
import { archiveRecord, integer, lenient, list, text } from "./platform.js";

/** A linked record: its id and name. */
export const ref = lenient(z.looseObject({ id: text, name: text }).nullable());
/** A record's fields by name, as the text shows them (each a value the json answer spells out). */
export const anyFields = lenient(z.record(z.string(), z.unknown()).nullable());
const quantity = lenient(z.looseObject({ value: lenient(z.number().nullable()), units: text }).nullable());

export const entryBrief = z.looseObject({
  id: text,
  displayId: text,
  name: text,
  folderId: text,
  modifiedAt: text,
  archiveRecord,
});
export const templateBrief = z.looseObject({ id: text, name: text });
export const folderBrief = z.looseObject({ id: text, name: text, projectId: text, archiveRecord });
export const projectBrief = z.looseObject({ id: text, name: text, archiveRecord });
export const registrySchemaBrief = z.looseObject({ id: text, name: text, type: text, prefix: text });
export const assayBrief = z.looseObject({
  id: text,
  schema: ref,
  fields: anyFields,
  entryId: text,
  createdAt: text,
});
export const assaySchemaBrief = z.looseObject({ id: text, name: text });
export const taskBrief = z.looseObject({
  id: text,
  displayId: text,
  status: lenient(z.looseObject({ displayName: text }).nullable()),
  assignee: ref,
  schema: ref,
  scheduledOn: text,
  fields: anyFields,
});
export const requestBrief = z.looseObject({
  id: text,
  displayId: text,
  requestStatus: text,
  schema: ref,
  requestor: ref,
  scheduledOn: text,
  fields: anyFields,
});
export const containerBrief = z.looseObject({
  id: text,
  name: text,
  parentStorageId: text,
  gridPosition: text,
  quantity,
  contents: list(z.looseObject({ entity: ref })),
});
export const storageBrief = z.looseObject({ id: text, name: text, type: text, size: integer });
