// The records as a markdown answer's structured copy carries them: the ids, names and figures its
// text shows (core/server/structured-copy.ts cuts a record down to what its tool's output declares).
// response_format=json carries the whole record; these stay small so that tools/list does too.
import { z } from "zod";
import { archiveRecord, integer, lenient, text } from "./platform.js";

/** A linked record by its id alone (its name is shown beside, e.g. in a page's schemas). */
const idRef = lenient(z.looseObject({ id: text }).nullable());
/** A linked record: its id and name. */
export const ref = lenient(z.looseObject({ id: text, name: text }).nullable());
/** A record's fields by name, each its value (the json answer spells out type and display text). */
export const anyFields = lenient(
  z.record(z.string(), z.looseObject({ value: z.unknown().optional() })).nullable(),
);
const quantity = lenient(z.looseObject({ value: lenient(z.number().nullable()), units: text }).nullable());

export const entryBrief = z.looseObject({ id: text, displayId: text, name: text, folderId: text });
export const templateBrief = z.looseObject({ id: text, name: text });
export const folderBrief = z.looseObject({ id: text, name: text, projectId: text, archiveRecord });
export const projectBrief = z.looseObject({ id: text, name: text, archiveRecord });
export const registrySchemaBrief = z.looseObject({ id: text, name: text, type: text, prefix: text });
/** A run or result: its id, schema and field values (json adds its project, times, creator...). */
export const assayBrief = z.looseObject({ id: text, schema: ref, fields: anyFields });
/** A task: which, its status, who has it, what it is about (json adds schema, workflow, dates...). */
export const taskBrief = z.looseObject({
  id: text,
  displayId: text,
  status: lenient(z.looseObject({ displayName: text }).nullable()),
  assignee: ref,
  fields: anyFields,
});
/** A request: which, its status, who asked, what (json adds schema, assignees, schedule...). */
export const requestBrief = z.looseObject({
  id: text,
  displayId: text,
  requestStatus: text,
  requestor: idRef,
  fields: anyFields,
});
export const containerBrief = z.looseObject({
  id: text,
  name: text,
  parentStorageId: text,
  gridPosition: text,
  quantity,
  contents: z.array(z.looseObject({ entity: idRef })).optional(),
});
export const storageBrief = z.looseObject({ id: text, name: text, type: text, size: integer });
