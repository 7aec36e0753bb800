// Every table of a tenant's warehouse, made from its state: fixed names first, then the schemas'
// tables (a schema whose warehouse name meets a fixed table's gets a suffix), and the schema catalog.
import type { TenantState } from "../state/emulator-state.js";
import { NameSet, warehouseName } from "./names.js";
import { column, type Row, type TableSpec } from "./table-spec.js";
import { folderTable, projectTable, userTable } from "./tables-core.js";
import { inventoryTables } from "./tables-inventory.js";
import { type AssayColumns, nameAssaySchemas, notebookTables } from "./tables-notebook.js";
import { nameEntitySchemas, registryTables, type SchemaColumns } from "./tables-registry.js";

const FIXED_TABLES = [
  "user",
  "project",
  "folder",
  "dna_sequence",
  "aa_sequence",
  "dna_oligo",
  "rna_oligo",
  "custom_entity",
  "entry",
  "assay_run",
  "location",
  "box",
  "plate",
  "container",
  "container_content",
  "workflow_task",
  "request",
  "schema",
  "schema_field",
  "column_catalog",
  "table_catalog",
];

function schemaTables(tenant: TenantState, entities: SchemaColumns[], assays: AssayColumns[]): TableSpec[] {
  const schemas: Row[] = [];
  const fields: Row[] = [];
  for (const { schema, table, columns } of entities) {
    schemas.push({ id: schema.id, name: schema.name, warehouse_name: table, schema_type: schema.type });
    for (const [name, spec] of columns) {
      fields.push({
        schema_id: schema.id,
        name,
        warehouse_name: spec.name,
        type: spec.type,
        unit_symbol: null,
        target_table: null,
      });
    }
  }
  for (const { schema, table, columns } of assays) {
    schemas.push({ id: schema.id, name: schema.name, warehouse_name: table, schema_type: schema.kind });
    for (const [name, spec] of columns) {
      fields.push({
        schema_id: schema.id,
        name,
        warehouse_name: spec.name,
        type: spec.type,
        unit_symbol: spec.unit ?? null,
        target_table: spec.linksTo ?? null,
      });
    }
  }
  for (const schema of tenant.notebook.taskSchemas.values()) {
    schemas.push({
      id: schema.id,
      name: schema.name,
      warehouse_name: warehouseName(schema.name),
      schema_type: "workflow_task",
    });
  }
  for (const schema of tenant.notebook.requestSchemas.values()) {
    schemas.push({
      id: schema.id,
      name: schema.name,
      warehouse_name: schema.systemName,
      schema_type: "request",
    });
  }
  return [
    {
      name: "schema",
      display: "Schemas",
      description:
        "schemas of entities, assay runs and results, workflow tasks and requests; warehouse_name is the table of its records",
      columns: [
        column("id", "text", "ID"),
        column("name", "text", "Name"),
        column("warehouse_name", "text", "Warehouse name"),
        column("schema_type", "text", "Type"),
      ],
      access: { by: "tenant" },
      archivedColumn: null,
      rows: schemas,
    },
    {
      name: "schema_field",
      display: "Schema fields",
      description:
        "the fields of each schema: display name, column (warehouse_name), type, unit, linked table",
      columns: [
        column("schema_id", "text", "Schema", { linksTo: "schema" }),
        column("name", "text", "Name"),
        column("warehouse_name", "text", "Warehouse name"),
        column("type", "text", "Type"),
        column("unit_symbol", "text", "Unit"),
        column("target_table", "text", "Links to table"),
      ],
      access: { by: "tenant" },
      archivedColumn: null,
      rows: fields,
    },
  ];
}

/** The tenant's warehouse tables, rows included. */
export function warehouseTables(tenant: TenantState): TableSpec[] {
  const names = new NameSet(FIXED_TABLES);
  const entities = nameEntitySchemas(tenant, names);
  const assays = nameAssaySchemas(tenant, names);
  return [
    userTable(tenant),
    projectTable(tenant),
    folderTable(tenant),
    ...registryTables(tenant, entities),
    ...notebookTables(tenant, assays),
    ...inventoryTables(tenant),
    ...schemaTables(tenant, entities, assays),
  ];
}
