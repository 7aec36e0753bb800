import { z } from "zod";
import { InvalidInputError } from "../../../core/errors.js";
import { identifier, responseFormat } from "../../../core/inputs.js";
import { heading, json, markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { oneLine } from "../../../core/untrusted-text.js";
import { getStorage, listBoxContents, storageKindOf } from "../api/inventory.js";
import type { LabdataClient } from "../client.js";
import { cellLabel, containerLine, gridTable } from "../format/inventory-markdown.js";
import { nameAndId } from "../format/labels.js";
import { containerBrief, storageBrief } from "../records/brief.js";
import { type Container, containerSchema } from "../records/registry.js";
import { boxMapView } from "../views/index.js";

/** A box holds at most this many positions here (the largest common box is 10x10, plates 384). */
const MAX_POSITIONS = 400;

export const getBoxContents = defineTool({
  name: "labdata_get_box_contents",
  title: "Get Box or Plate Contents",
  description:
    "What a box or plate (box_ or plt_ id) holds: a grid of positions, then each container with " +
    "position, quantity and contents.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "inventory",
  view: boxMapView,
  input: {
    id: identifier("Id of the box (box_...) or plate (plt_...)."),
    response_format: responseFormat,
  },
  output: { storage: storageBrief, containers: z.array(containerBrief) },
  async handler({ id, response_format }, ctx, client: LabdataClient) {
    const kind = storageKindOf(id);
    if (kind !== "box" && kind !== "plate") {
      throw new InvalidInputError(
        "Error: Invalid input for labdata_get_box_contents: id: give a box (box_...) or plate (plt_...) id.",
      );
    }
    const storage = await getStorage(client, kind, id, ctx);
    let containers: Container[];
    if (kind === "box") {
      containers = [];
      for (let offset = 0; offset < MAX_POSITIONS; offset += 100) {
        const { items, total } = await listBoxContents(client, id, offset, 100, ctx);
        containers.push(...items);
        if (items.length === 0 || offset + items.length >= total) break;
      }
    } else {
      containers = Object.entries(storage.wells ?? {}).flatMap(([position, well]) => {
        const parsed = containerSchema.safeParse(well);
        return parsed.success ? [{ ...parsed.data, gridPosition: parsed.data.gridPosition ?? position }] : [];
      });
    }
    const { wells: _wells, ...record } = storage;
    const structured = { storage: record, containers };
    if (response_format === "json") return reply(structured, json(structured));
    const capacity = storage.totalCapacity ?? storage.size ?? undefined;
    const cells = new Map(
      containers.flatMap((c) => (c.gridPosition ? [[c.gridPosition, cellLabel(c)] as const] : [])),
    );
    const filled =
      capacity === undefined || capacity === null
        ? `${containers.length} positions filled`
        : `${containers.length} of ${capacity} positions filled`;
    return reply(
      structured,
      markdown(
        heading(1, `${kind === "box" ? "Box" : "Plate"} ${nameAndId(storage.name, storage.id || id)}`),
        oneLine(
          [storage.schema?.name, filled, storage.barcode ? `barcode ${storage.barcode}` : undefined]
            .filter(Boolean)
            .join(", "),
        ),
        containers.length > 0 ? gridTable(capacity, cells) : "It is empty.",
        containers.length > 0 && heading(2, "Containers"),
        containers.map(containerLine),
      ),
    );
  },
});
