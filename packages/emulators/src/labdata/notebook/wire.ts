// Notebook, assay and workflow records as the API returns them, held to the OpenAPI document by
// test/contract: ISO times, UserSummary parties, archiveRecord null or {reason}, notes as the
// document's note parts, field values as its Field objects.
import { userSummary } from "../api/shapes.js";
import type { TenantState } from "../state/emulator-state.js";
import type {
  AssayFieldDefinition,
  AssayResult,
  AssayRun,
  AssaySchema,
  AssayValues,
  Entry,
  EntryTemplate,
  LabRequest,
  Note,
  NoteLink,
  RequestSchema,
  WorkflowTask,
} from "./model.js";

const iso = (ms: number): string => new Date(ms).toISOString();
const archiveRecord = (reason: string | null): { reason: string } | null =>
  reason === null ? null : { reason };

function linkToWire(link: NoteLink): Record<string, unknown> {
  return { id: link.id, type: link.type, webURL: link.webURL };
}

export function noteToWire(note: Note): Record<string, unknown> {
  switch (note.type) {
    case "assay_run":
    case "results_table":
      return { ...note };
    case "table":
      return {
        ...note,
        links: note.links.map(linkToWire),
        table: {
          name: note.table.name,
          columnLabels: note.table.columnLabels,
          rows: note.table.rows.map((row) => ({
            cells: row.cells.map((cell) =>
              cell.link ? { text: cell.text, link: linkToWire(cell.link) } : { text: cell.text },
            ),
          })),
        },
      };
    default:
      return { ...note, links: note.links.map(linkToWire) };
  }
}

function usersOf(tenant: TenantState, ids: string[]) {
  return ids.flatMap((id) => {
    const summary = userSummary(tenant.users.get(id));
    return summary ? [summary] : [];
  });
}

export function entryToWire(tenant: TenantState, entry: Entry): Record<string, unknown> {
  return {
    id: entry.id,
    displayId: entry.displayId,
    name: entry.name,
    folderId: entry.folderId,
    apiURL: `${tenant.baseUrl}/api/v2/entries/${entry.id}`,
    webURL: `${tenant.baseUrl}/${entry.id}`,
    archiveRecord: archiveRecord(entry.archiveReason),
    authors: usersOf(tenant, entry.authorIds),
    assignedReviewers: [],
    creator: userSummary(tenant.users.get(entry.creatorId)),
    createdAt: iso(entry.createdAt),
    modifiedAt: iso(entry.modifiedAt),
    customFields: {},
    fields: {},
    // No entry schema: left out, as the document's schema property refuses null despite "nullable".
    entryTemplateId: entry.entryTemplateId,
    reviewRecord: { status: entry.reviewStatus, comment: "", reviewChanges: [] },
    days: entry.days.map((day) => ({ date: day.date, title: day.title, notes: day.notes.map(noteToWire) })),
  };
}

export function templateToWire(tenant: TenantState, template: EntryTemplate): Record<string, unknown> {
  return {
    id: template.id,
    name: template.name,
    templateCollectionId: template.collectionId,
    apiURL: `${tenant.baseUrl}/api/v2/entry-templates/${template.id}`,
    webURL: `${tenant.baseUrl}/templates/${template.id}`,
    creator: userSummary(tenant.users.get(template.creatorId)),
    createdAt: iso(template.createdAt),
    modifiedAt: iso(template.modifiedAt),
    customFields: {},
    fields: {},
    days: template.days.map((day) => ({ day: day.day, title: day.title, notes: day.notes.map(noteToWire) })),
  };
}

function fieldDefinitionToWire(field: AssayFieldDefinition): Record<string, unknown> {
  const base = {
    id: field.id,
    name: field.name,
    type: field.type,
    isRequired: field.isRequired,
    isMulti: false,
  };
  const archived = { archiveRecord: null };
  if (field.type === "float") {
    return {
      ...base,
      ...archived,
      unit: field.unit,
      decimalPrecision: field.decimalPrecision,
      numericMin: null,
      numericMax: null,
      legalTextDropdownId: null,
    };
  }
  if (field.type === "integer")
    return { ...base, ...archived, unit: field.unit, numericMin: null, numericMax: null };
  if (field.type === "assay_run_link") return { ...base, ...archived, schemaId: null };
  return { ...base, ...archived };
}

export function assaySchemaToWire(tenant: TenantState, schema: AssaySchema): Record<string, unknown> {
  const organization = [...tenant.organizations.values()][0];
  return {
    id: schema.id,
    name: schema.name,
    type: schema.kind,
    systemName: schema.systemName,
    archiveRecord: null,
    derivedFrom: null,
    modifiedAt: iso(schema.modifiedAt),
    ...(organization
      ? { organization: { id: organization.id, name: organization.name, handle: organization.handle } }
      : {}),
    fieldDefinitions: schema.fields.map(fieldDefinitionToWire),
    ...(schema.kind === "assay_run"
      ? { automationInputFileConfigs: [], automationOutputFileConfigs: [] }
      : {}),
  };
}

/** The name a linked record is shown by: a sequence's or a run's label. */
function linkedName(tenant: TenantState, field: AssayFieldDefinition, id: string): string {
  if (field.type === "dna_sequence_link") return tenant.sequences.get(id)?.name ?? id;
  const run = tenant.notebook.assayRuns.get(id);
  const schema = run && tenant.notebook.assaySchemas.get(run.schemaId);
  return run && schema ? `${schema.name} ${run.values["Run number"] ?? ""}`.trim() : id;
}

function fieldsToWire(tenant: TenantState, schema: AssaySchema, values: AssayValues) {
  const fields: Record<string, unknown> = {};
  for (const field of schema.fields) {
    const value = values[field.name] ?? null;
    const isLink = field.type === "dna_sequence_link" || field.type === "assay_run_link";
    const display =
      value === null
        ? null
        : isLink
          ? linkedName(tenant, field, String(value))
          : field.unit
            ? `${value} ${field.unit.symbol}`
            : String(value);
    fields[field.name] = {
      value,
      type: field.type,
      displayValue: display,
      isMulti: false,
      textValue: value === null ? null : isLink ? display : String(value),
    };
  }
  return fields;
}

export function assayRunToWire(tenant: TenantState, run: AssayRun): Record<string, unknown> {
  const schema = tenant.notebook.assaySchemas.get(run.schemaId);
  return {
    id: run.id,
    apiURL: `${tenant.baseUrl}/api/v2/assay-runs/${run.id}`,
    schema: schema ? { id: schema.id, name: schema.name } : null,
    fields: schema ? fieldsToWire(tenant, schema, run.values) : {},
    createdAt: iso(run.createdAt),
    creator: userSummary(tenant.users.get(run.creatorId)),
    entryId: run.entryId,
    projectId: run.projectId,
    equipmentId: null,
    isReviewed: run.isReviewed,
    validationStatus: run.validationStatus,
    validationComment: null,
    archiveRecord: archiveRecord(run.archiveReason),
  };
}

export function assayResultToWire(tenant: TenantState, result: AssayResult): Record<string, unknown> {
  const schema = tenant.notebook.assaySchemas.get(result.schemaId);
  return {
    id: result.id,
    schema: schema ? { id: schema.id, name: schema.name } : undefined,
    fields: schema ? fieldsToWire(tenant, schema, result.values) : {},
    fieldValidation: {},
    createdAt: iso(result.createdAt),
    modifiedAt: iso(result.modifiedAt),
    creator: userSummary(tenant.users.get(result.creatorId)),
    entryId: result.entryId,
    projectId: result.projectId,
    isReviewed: result.isReviewed,
    archiveRecord: archiveRecord(result.archiveReason),
  };
}

export function taskToWire(tenant: TenantState, task: WorkflowTask): Record<string, unknown> {
  const { notebook } = tenant;
  const schema = notebook.taskSchemas.get(task.schemaId);
  const status = schema?.statuses.find((s) => s.id === task.statusId);
  const group = notebook.taskGroups.get(task.groupId);
  const team = task.responsibleTeamId ? tenant.teams.get(task.responsibleTeamId) : undefined;
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(task.values)) {
    fields[name] = { value, type: "text", displayValue: value, isMulti: false, textValue: value };
  }
  return {
    id: task.id,
    displayId: task.displayId,
    assignee: task.assigneeId ? (userSummary(tenant.users.get(task.assigneeId)) ?? null) : null,
    clonedFrom: null,
    createdAt: iso(task.createdAt),
    creationOrigin: { application: null, originId: null, originModalUuid: null, originType: null },
    creator: userSummary(tenant.users.get(task.creatorId)),
    executionOrigin: task.entryId ? { type: "ENTRY", entryId: task.entryId, originModalUuid: null } : null,
    executionType: task.entryId ? "ENTRY" : "DIRECT",
    fields,
    modifiedAt: iso(task.modifiedAt),
    outputs: [],
    scheduledOn: task.scheduledOn,
    schema: schema ? { id: schema.id, name: schema.name } : undefined,
    status: status
      ? { id: status.id, displayName: status.displayName, statusType: status.statusType }
      : undefined,
    webURL: `${tenant.baseUrl}/workflow-tasks/${task.id}`,
    workflowTaskGroup: group ? { id: group.id, displayId: group.displayId, name: group.name } : undefined,
    responsibleParties: team ? [{ id: team.id, handle: team.handle, name: team.name }] : [],
    nextTasks: [],
    sourceTasks: [],
    nextOutputs: [],
    sourceOutputs: [],
    workflowOutputs: [],
    archiveRecord: archiveRecord(task.archiveReason),
  };
}

function textFields(values: Record<string, string>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    fields[name] = { value, type: "text", displayValue: value, isMulti: false, textValue: value };
  }
  return fields;
}

export function requestSchemaToWire(tenant: TenantState, schema: RequestSchema): Record<string, unknown> {
  const organization = [...tenant.organizations.values()][0];
  return {
    id: schema.id,
    name: schema.name,
    type: "request",
    systemName: schema.systemName,
    archiveRecord: null,
    modifiedAt: iso(schema.modifiedAt),
    ...(organization
      ? { organization: { id: organization.id, name: organization.name, handle: organization.handle } }
      : {}),
    fieldDefinitions: [],
  };
}

export function requestToWire(tenant: TenantState, request: LabRequest): Record<string, unknown> {
  const schema = tenant.notebook.requestSchemas.get(request.schemaId);
  const assignees = request.assigneeIds.flatMap((id): Array<Record<string, unknown>> => {
    const team = tenant.teams.get(id);
    if (team) return [{ team: { id: team.id, name: team.name } }];
    const user = userSummary(tenant.users.get(id));
    return user ? [{ user }] : [];
  });
  return {
    id: request.id,
    displayId: request.displayId,
    apiURL: `${tenant.baseUrl}/api/v2/requests/${request.id}`,
    webURL: `${tenant.baseUrl}/requests/${request.id}`,
    schema: schema ? { id: schema.id, name: schema.name } : undefined,
    requestStatus: request.status,
    requestor: userSummary(tenant.users.get(request.requestorId)),
    creator: userSummary(tenant.users.get(request.creatorId)),
    assignees,
    projectId: request.projectId,
    fields: textFields(request.values),
    scheduledOn: request.scheduledOn,
    sampleGroups: [],
    tasks: [],
    createdAt: iso(request.createdAt),
  };
}
