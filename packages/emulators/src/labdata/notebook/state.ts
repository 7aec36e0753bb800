// What a tenant holds of the notebook, the assays and the workflows, beside its registry records.
import type {
  AssayResult,
  AssayRun,
  AssaySchema,
  Entry,
  EntryTemplate,
  LabRequest,
  RequestSchema,
  TaskSchema,
  TemplateCollection,
  WorkflowTask,
  WorkflowTaskGroup,
} from "./model.js";

export class NotebookState {
  readonly entries = new Map<string, Entry>();
  readonly templateCollections = new Map<string, TemplateCollection>();
  readonly entryTemplates = new Map<string, EntryTemplate>();
  readonly assaySchemas = new Map<string, AssaySchema>();
  readonly assayRuns = new Map<string, AssayRun>();
  readonly assayResults = new Map<string, AssayResult>();
  readonly taskSchemas = new Map<string, TaskSchema>();
  readonly taskGroups = new Map<string, WorkflowTaskGroup>();
  readonly tasks = new Map<string, WorkflowTask>();
  readonly requestSchemas = new Map<string, RequestSchema>();
  readonly requests = new Map<string, LabRequest>();
}
