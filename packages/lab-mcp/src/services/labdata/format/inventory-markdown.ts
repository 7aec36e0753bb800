// Inventory as an agent reads it: containers with their quantity and what they hold, and a plate or
// box as a grid of positions.

import { oneLine } from "../../../core/untrusted-text.js";
import type { Place } from "../api/locate.js";
import type { Container } from "../records/registry.js";
import { gridSize, ROW_LETTERS } from "./grid-layout.js";
import { nameAndId } from "./labels.js";

/** "1.5 mL", or undefined when the platform gave no quantity. */
export function quantityText(quantity: Container["quantity"]): string | undefined {
  if (!quantity || typeof quantity.value !== "number") return undefined;
  return quantity.units ? `${quantity.value} ${quantity.units}` : String(quantity.value);
}

/** What a container holds: "pLKO-shRNA-3 (seq_…)", "an item you may not read (seq_…)", at a concentration. */
export function contentsText(container: Container): string | undefined {
  const parts = (container.contents ?? []).flatMap((content) => {
    const entity = content.entity;
    if (!entity) return [];
    const what = entity.inaccessibleId
      ? `an item you may not read (${entity.inaccessibleId})`
      : nameAndId(entity.name, entity.id);
    const concentration = quantityText(content.concentration);
    return [concentration ? `${what} at ${concentration}` : what];
  });
  return parts.length > 0 ? parts.join("; ") : undefined;
}

/**
 * The id of a container (a plate's well) the platform answered as an InaccessibleResource (one of the
 * two well shapes of its document): it is there, and the user may not read it.
 */
export function inaccessibleContainerId(container: Container): string | undefined {
  const { resourceType, inaccessibleId } = container as { resourceType?: unknown; inaccessibleId?: unknown };
  if (resourceType !== "inaccessible_resource" && typeof inaccessibleId !== "string") return undefined;
  return typeof inaccessibleId === "string" && inaccessibleId ? inaccessibleId : "id not given";
}

export function containerLine(container: Container): string {
  const hidden = inaccessibleContainerId(container);
  if (hidden) {
    const where = container.gridPosition ? ` at position ${container.gridPosition}` : "";
    return `- **A container you may not read (${hidden})**: it is there${where}, but you have no access to what it holds`;
  }
  const parts = [
    container.gridPosition ? `position ${container.gridPosition}` : undefined,
    quantityText(container.quantity),
    container.schema?.name ?? undefined,
    contentsText(container) ? `holds ${contentsText(container)}` : "empty",
    container.parentStorageId ? `in ${container.parentStorageId}` : undefined,
    container.barcode ? `barcode ${container.barcode}` : undefined,
  ].filter(Boolean);
  return oneLine(`- **${nameAndId(container.name, container.id)}**: ${parts.join(", ")}`);
}

/** A markdown table of the grid, each cell the short label of what sits there ("." when empty). */
export function gridTable(capacity: number | undefined, cells: Map<string, string>): string {
  const [rows, columns] = gridSize(capacity, cells.keys());
  const header = `|   | ${Array.from({ length: columns }, (_, c) => c + 1).join(" | ")} |`;
  const rule = `|---|${"---|".repeat(columns)}`;
  const lines = Array.from({ length: rows }, (_, r) => {
    const row = ROW_LETTERS.charAt(r);
    const cellsOfRow = Array.from({ length: columns }, (_, c) => cells.get(`${row}${c + 1}`) ?? ".");
    return `| ${row} | ${cellsOfRow.join(" | ")} |`;
  });
  return [header, rule, ...lines].join("\n");
}

/** A short label for a grid cell: the first content's name, cut to stay readable; pipes escaped. */
export function cellLabel(container: Container): string {
  const entity = container.contents?.[0]?.entity;
  const name =
    entity?.inaccessibleId || inaccessibleContainerId(container)
      ? "(no access)"
      : entity?.name || container.name || container.id || "?";
  const flat = oneLine(name);
  const short = flat.length > 18 ? `${flat.slice(0, 17)}…` : flat;
  return short.replace(/\|/g, "/");
}

/** A storage as a path names it: "Name (id) [Freezer]", or that the caller may not see it. */
export function placeName(place: Place): string {
  if (!place.readable) return `a storage you may not see (${place.id})`;
  const kind = place.schema ?? place.kind;
  return `${nameAndId(place.name, place.id)} [${kind}]`;
}
