// The notebook and work in warehouse shape: entries, assay runs (all of them, and a table per run
// schema), assay results (a table per result schema, as Benchling keeps results), workflow tasks and
// requests. A field's column holds numbers as numbers (with the field's unit in the catalog) and a
// link as the linked record's id.
import type { AssayFieldType, AssaySchema, AssayValues } from "../notebook/model.js";
import { entryToWire, requestToWire, taskToWire } from "../notebook/wire.js";
import type { TenantState } from "../state/emulator-state.js";
import { NameSet, warehouseName } from "./names.js";
import {
  at,
  type Cell,
  type ColumnSpec,
  column,
  type Row,
  type SqlType,
  type TableSpec,
} from "./table-spec.js";

const FIELD_TYPES: Record<AssayFieldType, { type: SqlType; linksTo: string | null }> = {
  text: { type: "text", linksTo: null },
  integer: { type: "bigint", linksTo: null },
  float: { type: "double precision", linksTo: null },
  date: { type: "date", linksTo: null },
  dna_sequence_link: { type: "text", linksTo: "dna_sequence" },
  assay_run_link: { type: "text", linksTo: "assay_run" },
};

export interface AssayColumns {
  schema: AssaySchema;
  table: string;
  columns: Map<string, ColumnSpec>;
}

const RUN_COLUMNS: ColumnSpec[] = [
  column("id", "text", "ID"),
  column("schema_id", "text", "Schema", { linksTo: "schema" }),
  column("project_id", "text", "Project", { linksTo: "project" }),
  column("entry_id", "text", "Entry", { linksTo: "entry" }),
  column("creator_id", "text", "Creator", { linksTo: "user" }),
  column("created_at", "timestamptz", "Created at"),
  column("validation_status", "text", "Validation status"),
  column("is_reviewed", "boolean", "Reviewed"),
  column("archived$", "boolean", "Archived"),
  column("archive_purpose$", "text", "Archive reason"),
];

const RESULT_COLUMNS: ColumnSpec[] = [
  column("id", "text", "ID"),
  column("schema_id", "text", "Schema", { linksTo: "schema" }),
  column("project_id", "text", "Project", { linksTo: "project" }),
  column("entry_id", "text", "Entry", { linksTo: "entry" }),
  column("creator_id", "text", "Creator", { linksTo: "user" }),
  column("created_at", "timestamptz", "Created at"),
  column("modified_at", "timestamptz", "Modified at"),
  column("is_reviewed", "boolean", "Reviewed"),
  column("archived$", "boolean", "Archived"),
  column("archive_purpose$", "text", "Archive reason"),
];

/** Names each assay schema's table and its fields' columns. */
export function nameAssaySchemas(tenant: TenantState, tableNames: NameSet): AssayColumns[] {
  return [...tenant.notebook.assaySchemas.values()].map((schema) => {
    const system = schema.kind === "assay_run" ? RUN_COLUMNS : RESULT_COLUMNS;
    const columnNames = new NameSet(system.map((c) => c.name));
    const columns = new Map<string, ColumnSpec>();
    for (const field of schema.fields) {
      const { type, linksTo } = FIELD_TYPES[field.type];
      const name = columnNames.claim(warehouseName(field.name));
      columns.set(field.name, column(name, type, field.name, { unit: field.unit?.symbol ?? null, linksTo }));
    }
    return { schema, table: tableNames.claim(schema.systemName || warehouseName(schema.name)), columns };
  });
}

function valueCell(values: AssayValues, field: string, type: SqlType): Cell {
  const raw = values[field];
  if (raw === null || raw === undefined || raw === "") return null;
  if (type === "text" || type === "date") return String(raw);
  const number = typeof raw === "number" ? raw : Number(raw);
  if (!Number.isFinite(number)) return null;
  return type === "bigint" ? Math.trunc(number) : number;
}

function withValues(row: Row, named: AssayColumns, values: AssayValues): Row {
  for (const [field, spec] of named.columns) row[spec.name] = valueCell(values, field, spec.type);
  return row;
}

function assayTables(tenant: TenantState, assays: AssayColumns[]): TableSpec[] {
  const { assayRuns, assayResults } = tenant.notebook;
  return assays.map((named) => {
    const isRun = named.schema.kind === "assay_run";
    const rows: Row[] = isRun
      ? [...assayRuns.values()]
          .filter((run) => run.schemaId === named.schema.id)
          .map((run) =>
            withValues(
              {
                id: run.id,
                schema_id: run.schemaId,
                project_id: run.projectId,
                entry_id: run.entryId,
                creator_id: run.creatorId,
                created_at: at(run.createdAt),
                validation_status: run.validationStatus,
                is_reviewed: run.isReviewed,
                archived$: run.archiveReason !== null,
                archive_purpose$: run.archiveReason,
              },
              named,
              run.values,
            ),
          )
      : [...assayResults.values()]
          .filter((result) => result.schemaId === named.schema.id)
          .map((result) =>
            withValues(
              {
                id: result.id,
                schema_id: result.schemaId,
                project_id: result.projectId,
                entry_id: result.entryId,
                creator_id: result.creatorId,
                created_at: at(result.createdAt),
                modified_at: at(result.modifiedAt),
                is_reviewed: result.isReviewed,
                archived$: result.archiveReason !== null,
                archive_purpose$: result.archiveReason,
              },
              named,
              result.values,
            ),
          );
    return {
      name: named.table,
      display: named.schema.name,
      description: `${isRun ? "assay runs" : "assay results"} of schema ${named.schema.name}, one column per field`,
      columns: [...(isRun ? RUN_COLUMNS : RESULT_COLUMNS), ...named.columns.values()],
      access: { by: "project", column: "project_id" },
      archivedColumn: "archived$",
      rows,
    };
  });
}

function allRunsTable(tenant: TenantState): TableSpec {
  return {
    name: "assay_run",
    display: "Assay runs",
    description: "every assay run, whatever its schema (its fields are in its schema's table)",
    columns: RUN_COLUMNS,
    access: { by: "project", column: "project_id" },
    archivedColumn: "archived$",
    rows: [...tenant.notebook.assayRuns.values()].map((run) => ({
      id: run.id,
      schema_id: run.schemaId,
      project_id: run.projectId,
      entry_id: run.entryId,
      creator_id: run.creatorId,
      created_at: at(run.createdAt),
      validation_status: run.validationStatus,
      is_reviewed: run.isReviewed,
      archived$: run.archiveReason !== null,
      archive_purpose$: run.archiveReason,
    })),
  };
}

function entryTable(tenant: TenantState): TableSpec {
  return {
    name: "entry",
    display: "Notebook entries",
    description: "notebook entries (their text is read with the entry tools)",
    columns: [
      column("id", "text", "ID"),
      column("display_id", "text", "Display ID"),
      column("name", "text", "Name"),
      column("folder_id", "text", "Folder", { linksTo: "folder" }),
      column("project_id", "text", "Project", { linksTo: "project" }),
      column("creator_id", "text", "Creator", { linksTo: "user" }),
      column("entry_template_id", "text", "Template"),
      column("review_status", "text", "Review status"),
      column("created_at", "timestamptz", "Created at"),
      column("modified_at", "timestamptz", "Modified at"),
      column("archived$", "boolean", "Archived"),
      column("archive_purpose$", "text", "Archive reason"),
      column("url", "text", "Web URL"),
    ],
    access: { by: "folder", column: "folder_id" },
    archivedColumn: "archived$",
    rows: [...tenant.notebook.entries.values()].map((entry) => ({
      id: entry.id,
      display_id: entry.displayId,
      name: entry.name,
      folder_id: entry.folderId,
      project_id: tenant.folders.get(entry.folderId)?.projectId ?? null,
      creator_id: entry.creatorId,
      entry_template_id: entry.entryTemplateId,
      review_status: entry.reviewStatus,
      created_at: at(entry.createdAt),
      modified_at: at(entry.modifiedAt),
      archived$: entry.archiveReason !== null,
      archive_purpose$: entry.archiveReason,
      url: String(entryToWire(tenant, entry).webURL),
    })),
  };
}

function workflowTaskTable(tenant: TenantState): TableSpec {
  const { taskGroups, taskSchemas, tasks } = tenant.notebook;
  return {
    name: "workflow_task",
    display: "Workflow tasks",
    description: "tasks of workflows, with their status and assignee",
    columns: [
      column("id", "text", "ID"),
      column("display_id", "text", "Display ID"),
      column("workflow_task_group_id", "text", "Workflow"),
      column("workflow_task_group_name", "text", "Workflow name"),
      column("schema_id", "text", "Schema", { linksTo: "schema" }),
      column("status", "text", "Status"),
      column("status_type", "text", "Status type"),
      column("assignee_id", "text", "Assignee", { linksTo: "user" }),
      column("responsible_team_id", "text", "Responsible team"),
      column("creator_id", "text", "Creator", { linksTo: "user" }),
      column("scheduled_on", "date", "Scheduled on"),
      column("entry_id", "text", "Entry", { linksTo: "entry" }),
      column("folder_id", "text", "Folder", { linksTo: "folder" }),
      column("project_id", "text", "Project", { linksTo: "project" }),
      column("fields", "jsonb", "Fields (by field name)"),
      column("created_at", "timestamptz", "Created at"),
      column("modified_at", "timestamptz", "Modified at"),
      column("archived$", "boolean", "Archived"),
      column("archive_purpose$", "text", "Archive reason"),
      column("url", "text", "Web URL"),
    ],
    access: { by: "folder", column: "folder_id" },
    archivedColumn: "archived$",
    rows: [...tasks.values()].map((task) => {
      const group = taskGroups.get(task.groupId);
      const status = taskSchemas.get(task.schemaId)?.statuses.find((s) => s.id === task.statusId);
      return {
        id: task.id,
        display_id: task.displayId,
        workflow_task_group_id: task.groupId,
        workflow_task_group_name: group?.name ?? null,
        schema_id: task.schemaId,
        status: status?.displayName ?? null,
        status_type: status?.statusType ?? null,
        assignee_id: task.assigneeId,
        responsible_team_id: task.responsibleTeamId,
        creator_id: task.creatorId,
        scheduled_on: task.scheduledOn,
        entry_id: task.entryId,
        folder_id: group?.folderId ?? null,
        project_id: group ? (tenant.folders.get(group.folderId)?.projectId ?? null) : null,
        fields: task.values,
        created_at: at(task.createdAt),
        modified_at: at(task.modifiedAt),
        archived$: task.archiveReason !== null,
        archive_purpose$: task.archiveReason,
        url: String(taskToWire(tenant, task).webURL),
      };
    }),
  };
}

function requestTable(tenant: TenantState): TableSpec {
  return {
    name: "request",
    display: "Requests",
    description: "requests for work (sequencing, synthesis...), with their status",
    columns: [
      column("id", "text", "ID"),
      column("display_id", "text", "Display ID"),
      column("schema_id", "text", "Schema", { linksTo: "schema" }),
      column("project_id", "text", "Project", { linksTo: "project" }),
      column("request_status", "text", "Status"),
      column("requestor_id", "text", "Requestor", { linksTo: "user" }),
      column("creator_id", "text", "Creator", { linksTo: "user" }),
      column("scheduled_on", "date", "Scheduled on"),
      column("fields", "jsonb", "Fields (by field name)"),
      column("created_at", "timestamptz", "Created at"),
      column("url", "text", "Web URL"),
    ],
    access: { by: "project", column: "project_id" },
    archivedColumn: null,
    rows: [...tenant.notebook.requests.values()].map((request) => ({
      id: request.id,
      display_id: request.displayId,
      schema_id: request.schemaId,
      project_id: request.projectId,
      request_status: request.status,
      requestor_id: request.requestorId,
      creator_id: request.creatorId,
      scheduled_on: request.scheduledOn,
      fields: request.values,
      created_at: at(request.createdAt),
      url: String(requestToWire(tenant, request).webURL),
    })),
  };
}

export function notebookTables(tenant: TenantState, assays: AssayColumns[]): TableSpec[] {
  return [
    entryTable(tenant),
    allRunsTable(tenant),
    ...assayTables(tenant, assays),
    workflowTaskTable(tenant),
    requestTable(tenant),
  ];
}
