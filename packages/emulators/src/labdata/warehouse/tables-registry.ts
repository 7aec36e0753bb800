// The registry in warehouse shape: a table per entity type (dna_sequence, aa_sequence, dna_oligo,
// rna_oligo, custom_entity) and one per entity schema, named by the schema's warehouse name, whose
// system columns end in `$` so that they never meet a field's column.
import { sequenceToWire } from "../api/shapes.js";
import type { EntitySchemaRecord, RegistryEntity, SchemaType } from "../registry/model.js";
import { registryOf } from "../registry/store.js";
import { entityToWire } from "../registry/wire.js";
import type { TenantState } from "../state/emulator-state.js";
import type { FieldValue } from "../state/model.js";
import { NameSet, warehouseName } from "./names.js";
import { at, type ColumnSpec, column, type Row, type SqlType, type TableSpec } from "./table-spec.js";

/** One registry record in a uniform shape, whatever its kind. */
interface EntityRecord {
  id: string;
  kind: SchemaType;
  name: string;
  entityRegistryId: string | null;
  folderId: string;
  schemaId: string | null;
  residues: string;
  isCircular: boolean | null;
  fields: Record<string, FieldValue>;
  creatorId: string;
  createdAt: number;
  modifiedAt: number;
  archiveReason: string | null;
  url: string;
}

const TYPE_TABLES: Array<{ kind: SchemaType; display: string; residues: string | null }> = [
  { kind: "dna_sequence", display: "DNA sequences", residues: "bases" },
  { kind: "aa_sequence", display: "AA sequences", residues: "amino_acids" },
  { kind: "dna_oligo", display: "DNA oligos", residues: "bases" },
  { kind: "rna_oligo", display: "RNA oligos", residues: "bases" },
  { kind: "custom_entity", display: "Custom entities", residues: null },
];

function records(tenant: TenantState): EntityRecord[] {
  const out: EntityRecord[] = [];
  for (const seq of tenant.sequences.values()) {
    out.push({
      id: seq.id,
      kind: "dna_sequence",
      name: seq.name,
      entityRegistryId: seq.entityRegistryId,
      folderId: seq.folderId,
      schemaId: seq.schema?.id ?? null,
      residues: seq.bases,
      isCircular: seq.isCircular,
      fields: seq.fields,
      creatorId: seq.creatorId,
      createdAt: seq.createdAt,
      modifiedAt: seq.modifiedAt,
      archiveReason: seq.archiveReason,
      url: String(sequenceToWire(tenant, seq).webURL),
    });
  }
  for (const entity of registryOf(tenant).entities.values()) out.push(fromEntity(tenant, entity));
  return out;
}

function fromEntity(tenant: TenantState, entity: RegistryEntity): EntityRecord {
  return {
    id: entity.id,
    kind: entity.kind,
    name: entity.name,
    entityRegistryId: entity.entityRegistryId,
    folderId: entity.folderId,
    schemaId: entity.schema?.id ?? null,
    residues: entity.residues,
    isCircular: null,
    fields: entity.fields,
    creatorId: entity.creatorId,
    createdAt: entity.createdAt,
    modifiedAt: entity.modifiedAt,
    archiveReason: entity.archiveReason,
    url: String(entityToWire(tenant, entity).webURL),
  };
}

function typeTable(tenant: TenantState, spec: (typeof TYPE_TABLES)[number], all: EntityRecord[]): TableSpec {
  const columns: ColumnSpec[] = [
    column("id", "text", "ID"),
    column("name", "text", "Name"),
    column("entity_registry_id", "text", "Registry ID"),
  ];
  if (spec.residues) {
    columns.push(column(spec.residues, "text", spec.residues === "bases" ? "Bases" : "Amino acids"));
    columns.push(column("length", "integer", "Length", { unit: spec.residues === "bases" ? "bp" : "aa" }));
  }
  if (spec.kind === "dna_sequence") columns.push(column("is_circular", "boolean", "Circular"));
  columns.push(
    column("folder_id", "text", "Folder", { linksTo: "folder" }),
    column("project_id", "text", "Project", { linksTo: "project" }),
    column("schema_id", "text", "Schema", { linksTo: "schema" }),
    column("creator_id", "text", "Creator", { linksTo: "user" }),
    column("created_at", "timestamptz", "Created at"),
    column("modified_at", "timestamptz", "Modified at"),
    column("archived$", "boolean", "Archived"),
    column("archive_purpose$", "text", "Archive reason"),
    column("url", "text", "Web URL"),
  );
  return {
    name: spec.kind,
    display: spec.display,
    description: `every ${spec.display.replace(/s$/, "").toLowerCase()} of the registry, whatever its schema`,
    columns,
    access: { by: "folder", column: "folder_id" },
    archivedColumn: "archived$",
    rows: all
      .filter((record) => record.kind === spec.kind)
      .map((record) => {
        const row: Row = {
          id: record.id,
          name: record.name,
          entity_registry_id: record.entityRegistryId,
          folder_id: record.folderId,
          project_id: tenant.folders.get(record.folderId)?.projectId ?? null,
          schema_id: record.schemaId,
          creator_id: record.creatorId,
          created_at: at(record.createdAt),
          modified_at: at(record.modifiedAt),
          archived$: record.archiveReason !== null,
          archive_purpose$: record.archiveReason,
          url: record.url,
        };
        if (spec.residues) {
          row[spec.residues] = record.residues;
          row.length = record.residues.length;
        }
        if (spec.kind === "dna_sequence") row.is_circular = record.isCircular;
        return row;
      }),
  };
}

const FIELD_TYPES: Record<EntitySchemaRecord["fields"][number]["type"], SqlType> = {
  text: "text",
  integer: "bigint",
  float: "double precision",
};

const SCHEMA_SYSTEM_COLUMNS: ColumnSpec[] = [
  column("id", "text", "ID"),
  column("name$", "text", "Name"),
  column("entity_registry_id$", "text", "Registry ID"),
  column("folder_id$", "text", "Folder", { linksTo: "folder" }),
  column("project_id$", "text", "Project", { linksTo: "project" }),
  column("schema_id$", "text", "Schema", { linksTo: "schema" }),
  column("creator_id$", "text", "Creator", { linksTo: "user" }),
  column("created_at$", "timestamptz", "Created at"),
  column("modified_at$", "timestamptz", "Modified at"),
  column("archived$", "boolean", "Archived"),
  column("archive_purpose$", "text", "Archive reason"),
  column("url$", "text", "Web URL"),
];

/** A field's value as its column's type holds it; a text the type cannot hold is left null. */
function fieldCell(value: FieldValue | undefined, type: SqlType): string | number | boolean | null {
  const raw = value?.value;
  if (raw === null || raw === undefined || raw === "") return null;
  if (type === "text") return String(raw);
  const number = typeof raw === "number" ? raw : Number(raw);
  if (!Number.isFinite(number)) return null;
  return type === "bigint" ? Math.trunc(number) : number;
}

export interface SchemaColumns {
  schema: EntitySchemaRecord;
  table: string;
  /** Field name -> its column. */
  columns: Map<string, ColumnSpec>;
}

/** Names each entity schema's table and its fields' columns. */
export function nameEntitySchemas(tenant: TenantState, tableNames: NameSet): SchemaColumns[] {
  return [...registryOf(tenant).schemas.values()].map((schema) => {
    const columnNames = new NameSet(SCHEMA_SYSTEM_COLUMNS.map((c) => c.name));
    const columns = new Map<string, ColumnSpec>();
    for (const field of schema.fields) {
      columns.set(
        field.name,
        column(columnNames.claim(warehouseName(field.name)), FIELD_TYPES[field.type], field.name),
      );
    }
    return { schema, table: tableNames.claim(warehouseName(schema.name)), columns };
  });
}

function schemaTable(tenant: TenantState, named: SchemaColumns, all: EntityRecord[]): TableSpec {
  return {
    name: named.table,
    display: named.schema.name,
    description: `${named.schema.type.replace("_", " ")}s of schema ${named.schema.name} with their fields`,
    columns: [...SCHEMA_SYSTEM_COLUMNS, ...named.columns.values()],
    access: { by: "folder", column: "folder_id$" },
    archivedColumn: "archived$",
    rows: all
      .filter((record) => record.schemaId === named.schema.id)
      .map((record) => {
        const row: Row = {
          id: record.id,
          name$: record.name,
          entity_registry_id$: record.entityRegistryId,
          folder_id$: record.folderId,
          project_id$: tenant.folders.get(record.folderId)?.projectId ?? null,
          schema_id$: record.schemaId,
          creator_id$: record.creatorId,
          created_at$: at(record.createdAt),
          modified_at$: at(record.modifiedAt),
          archived$: record.archiveReason !== null,
          archive_purpose$: record.archiveReason,
          url$: record.url,
        };
        for (const [field, spec] of named.columns)
          row[spec.name] = fieldCell(record.fields[field], spec.type);
        return row;
      }),
  };
}

export function registryTables(tenant: TenantState, schemas: SchemaColumns[]): TableSpec[] {
  const all = records(tenant);
  return [
    ...TYPE_TABLES.map((spec) => typeTable(tenant, spec, all)),
    ...schemas.map((named) => schemaTable(tenant, named, all)),
  ];
}
