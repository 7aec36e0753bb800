// The notebook, assay and workflow records as the emulator keeps them: entries with their days and
// notes, entry templates in collections, assay schemas with their field definitions and units, assay
// runs and results, workflow tasks in task groups. Times are epoch milliseconds of the emulator clock.

/** A reference from a note to a record of the platform (or a plain hyperlink). */
export interface NoteLink {
  id: string;
  type: "dna_sequence" | "entry" | "user" | "custom_entity" | "link";
  webURL: string | null;
}

export interface TableCell {
  text: string;
  link?: NoteLink;
}

export interface NoteTable {
  name: string;
  columnLabels: Array<string | null>;
  rows: Array<{ cells: TableCell[] }>;
}

export type Note =
  | {
      type: "text" | "code" | "list_bullet" | "list_number";
      indentation: number;
      text: string;
      links: NoteLink[];
    }
  | { type: "list_checkbox"; indentation: number; text: string; checked: boolean; links: NoteLink[] }
  | { type: "table"; indentation: number; text: string; table: NoteTable; links: NoteLink[] }
  | { type: "assay_run"; indentation: number; assayRunId: string; assayRunSchemaId: string }
  | { type: "results_table"; indentation: number; apiId: string; assayResultSchemaId: string };

export interface EntryDay {
  /** YYYY-MM-DD. */
  date: string;
  title: string | null;
  notes: Note[];
}

export type ReviewStatus = "IN_PROGRESS" | "NEEDS_REVIEW" | "ACCEPTED";

export interface Entry {
  id: string;
  /** e.g. "EXP25001234". */
  displayId: string;
  name: string;
  folderId: string;
  creatorId: string;
  authorIds: string[];
  entryTemplateId: string | null;
  reviewStatus: ReviewStatus;
  days: EntryDay[];
  createdAt: number;
  modifiedAt: number;
  archiveReason: string | null;
}

/** Templates live in collections; a collection belongs to a project and is read with its permissions. */
export interface TemplateCollection {
  id: string;
  name: string;
  projectId: string;
}

export interface EntryTemplate {
  id: string;
  name: string;
  collectionId: string;
  creatorId: string;
  days: Array<{ day: number; title: string | null; notes: Note[] }>;
  createdAt: number;
  modifiedAt: number;
  archiveReason: string | null;
}

export interface Unit {
  id: string;
  name: string;
  symbol: string;
  unitTypeId: string;
}

export type AssayFieldType = "text" | "integer" | "float" | "date" | "dna_sequence_link" | "assay_run_link";

export interface AssayFieldDefinition {
  id: string;
  name: string;
  type: AssayFieldType;
  isRequired: boolean;
  unit: Unit | null;
  decimalPrecision: number | null;
}

export interface AssaySchema {
  id: string;
  kind: "assay_run" | "assay_result";
  name: string;
  systemName: string;
  fields: AssayFieldDefinition[];
  modifiedAt: number;
}

/** Field values by field name: a string, number, or the id of a linked record. */
export type AssayValues = Record<string, string | number | null>;

export interface AssayRun {
  id: string;
  schemaId: string;
  projectId: string;
  entryId: string | null;
  creatorId: string;
  values: AssayValues;
  validationStatus: "VALID" | "INVALID";
  isReviewed: boolean;
  createdAt: number;
  archiveReason: string | null;
}

export interface AssayResult {
  id: string;
  schemaId: string;
  projectId: string;
  entryId: string | null;
  creatorId: string;
  values: AssayValues;
  isReviewed: boolean;
  createdAt: number;
  modifiedAt: number;
  archiveReason: string | null;
}

export type TaskStatusType = "PENDING" | "IN_PROGRESS" | "COMPLETED" | "FAILED" | "CANCELLED";

export interface TaskStatus {
  id: string;
  displayName: string;
  statusType: TaskStatusType;
}

export interface TaskSchema {
  id: string;
  name: string;
  statuses: TaskStatus[];
}

/** A workflow: its tasks are read with the permissions of its folder. */
export interface WorkflowTaskGroup {
  id: string;
  displayId: string;
  name: string;
  folderId: string;
}

export interface WorkflowTask {
  id: string;
  displayId: string;
  groupId: string;
  schemaId: string;
  statusId: string;
  assigneeId: string | null;
  responsibleTeamId: string | null;
  creatorId: string;
  scheduledOn: string | null;
  /** What the task is about, by field name (text). */
  values: Record<string, string>;
  /** The entry it is carried out in, if any. */
  entryId: string | null;
  createdAt: number;
  modifiedAt: number;
  archiveReason: string | null;
}

export type RequestStatus = "REQUESTED" | "SCHEDULED" | "IN_PROGRESS" | "COMPLETED" | "CANCELLED";

export interface RequestSchema {
  id: string;
  name: string;
  systemName: string;
  modifiedAt: number;
}

/** A request for work (a sequencing run, an oligo synthesis), read with its project's permissions. */
export interface LabRequest {
  id: string;
  displayId: string;
  schemaId: string;
  projectId: string;
  status: RequestStatus;
  requestorId: string;
  creatorId: string;
  /** Users and teams it is assigned to. */
  assigneeIds: string[];
  scheduledOn: string | null;
  /** What is asked, by field name (text). */
  values: Record<string, string>;
  createdAt: number;
}
