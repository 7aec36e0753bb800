// Inventory in warehouse shape: locations (anyone in the tenant sees them, as the API shows them),
// boxes, plates and containers (by their project), and what each container holds.
import type { StorageBase } from "../registry/model.js";
import { registryOf } from "../registry/store.js";
import type { TenantState } from "../state/emulator-state.js";
import { at, type ColumnSpec, column, type Row, type TableSpec } from "./table-spec.js";

const STORAGE_COLUMNS: ColumnSpec[] = [
  column("id", "text", "ID"),
  column("name", "text", "Name"),
  column("barcode", "text", "Barcode"),
  column("schema_id", "text", "Schema", { linksTo: "schema" }),
  column("parent_storage_id", "text", "Stored in (location, box or plate)"),
  column("creator_id", "text", "Creator", { linksTo: "user" }),
  column("created_at", "timestamptz", "Created at"),
  column("modified_at", "timestamptz", "Modified at"),
  column("archived$", "boolean", "Archived"),
  column("archive_purpose$", "text", "Archive reason"),
];

function storageRow(item: StorageBase): Row {
  return {
    id: item.id,
    name: item.name,
    barcode: item.barcode,
    schema_id: item.schema.id,
    parent_storage_id: item.parentStorageId,
    creator_id: item.creatorId,
    created_at: at(item.createdAt),
    modified_at: at(item.modifiedAt),
    archived$: item.archiveReason !== null,
    archive_purpose$: item.archiveReason,
  };
}

const PROJECT = column("project_id", "text", "Project", { linksTo: "project" });
const GRID = [column("rows", "integer", "Rows"), column("columns", "integer", "Columns")];

export function inventoryTables(tenant: TenantState): TableSpec[] {
  const store = registryOf(tenant);
  const containers = [...store.containers.values()];
  return [
    {
      name: "location",
      display: "Locations",
      description: "rooms, freezers, shelves and racks",
      columns: STORAGE_COLUMNS,
      access: { by: "tenant" },
      archivedColumn: "archived$",
      rows: [...store.locations.values()].map(storageRow),
    },
    {
      name: "box",
      display: "Boxes",
      description: "boxes with a grid of positions for containers",
      columns: [...STORAGE_COLUMNS, PROJECT, ...GRID],
      access: { by: "project", column: "project_id" },
      archivedColumn: "archived$",
      rows: [...store.boxes.values()].map((box) => ({
        ...storageRow(box),
        project_id: box.projectId,
        rows: box.rows,
        columns: box.columns,
      })),
    },
    {
      name: "plate",
      display: "Plates",
      description: "plates with wells (each well a container)",
      columns: [...STORAGE_COLUMNS, PROJECT, ...GRID],
      access: { by: "project", column: "project_id" },
      archivedColumn: "archived$",
      rows: [...store.plates.values()].map((plate) => ({
        ...storageRow(plate),
        project_id: plate.projectId,
        rows: plate.rows,
        columns: plate.columns,
      })),
    },
    {
      name: "container",
      display: "Containers",
      description: "tubes and wells: where they sit and how much they hold",
      columns: [
        ...STORAGE_COLUMNS,
        PROJECT,
        column("position", "text", "Position in its box or plate"),
        column("quantity_value", "double precision", "Quantity"),
        column("quantity_units", "text", "Quantity units"),
      ],
      access: { by: "project", column: "project_id" },
      archivedColumn: "archived$",
      rows: containers.map((container) => ({
        ...storageRow(container),
        project_id: container.projectId,
        position: container.position,
        quantity_value: container.quantity.value,
        quantity_units: container.quantity.units,
      })),
    },
    {
      name: "container_content",
      display: "Container contents",
      description: "which entity each container holds, at which concentration",
      columns: [
        column("container_id", "text", "Container", { linksTo: "container" }),
        column("entity_id", "text", "Entity (a DNA sequence, oligo, AA sequence or custom entity)"),
        column("project_id", "text", "Project", { linksTo: "project" }),
        column("concentration_value", "double precision", "Concentration"),
        column("concentration_units", "text", "Concentration units"),
      ],
      access: { by: "project", column: "project_id" },
      archivedColumn: null,
      rows: containers.flatMap((container) =>
        container.contents.map((content) => ({
          container_id: container.id,
          entity_id: content.entityId,
          project_id: container.projectId,
          concentration_value: content.concentration.value,
          concentration_units: content.concentration.units,
        })),
      ),
    },
  ];
}
