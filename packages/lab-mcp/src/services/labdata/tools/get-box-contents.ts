import { z } from "zod";
import { boundedString, responseFormat } from "../../../core/inputs.js";
import { heading, json, markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { oneLine } from "../../../core/untrusted-text.js";
import { getStorage, listBoxContents, listContainers, listStorages } from "../api/inventory.js";
import { type Place, placesAbove } from "../api/locate.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
import { cellLabel, containerLine, gridTable, placeName } from "../format/inventory-markdown.js";
import { nameAndId } from "../format/labels.js";
import { howMany } from "../list-page.js";
import { containerBrief, storageBrief } from "../records/brief.js";
import { text } from "../records/platform.js";
import { type Container, containerSchema, type Storage } from "../records/registry.js";
import { resolveStorage } from "../storage-ref.js";
import { boxMapView } from "../views/index.js";

const TOOL = "labdata_get_box_contents";
/** A box holds at most this many positions here (the largest common box is 10x10, plates 384). */
const MAX_POSITIONS = 400;
/** Records of each kind read inside a location: one page. */
const INSIDE = 100;
/** A location holding at most this many containers lists them under their box or plate: one call answers. */
const LISTED_INSIDE = 30;

/** A storage above or inside: json adds the rest of its record. */
const placeSchema = z.looseObject({ id: text, name: text });

export const getBoxContents = defineTool({
  name: TOOL,
  title: "Get Storage Contents",
  description: "What a box, plate or location (freezer, shelf) holds, and where it is.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "inventory",
  view: boxMapView,
  input: {
    id: boundedString({ description: "Id (box_, plt_, loc_), page address or name.", max: 500 }),
    response_format: responseFormat,
  },
  output: {
    storage: storageBrief,
    where: z.array(placeSchema),
    containers: z.array(containerBrief),
    // A location's locations, boxes and plates (json: each its whole record).
    inside: z.array(placeSchema).optional(),
  },
  async handler({ id: named, response_format }, ctx, client: LabdataClient) {
    const { kind, id } = await resolveStorage(client, TOOL, named, ctx);
    const storage = await getStorage(client, kind, id, ctx);
    const where = await placesAbove(client, storage.parentStorageId ?? null, ctx);
    if (kind === "location") return locationReply(client, storage, id, where, response_format, ctx);
    const containers = kind === "box" ? await boxContents(client, id, ctx) : wellsOf(storage);
    const { wells: _wells, ...record } = storage;
    const structured = { storage: record, where, containers };
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
        whereLine(where),
        containers.length > 0 ? gridTable(capacity, cells) : "It is empty.",
        containers.length > 0 && heading(2, "Containers"),
        containers.map(containerLine),
      ),
    );
  },
});

async function boxContents(client: LabdataClient, id: string, ctx: LabdataCall): Promise<Container[]> {
  const containers: Container[] = [];
  for (let offset = 0; offset < MAX_POSITIONS; offset += 100) {
    const { items, total } = await listBoxContents(client, id, offset, 100, ctx);
    containers.push(...items);
    if (items.length === 0 || offset + items.length >= total) break;
  }
  return containers;
}

function wellsOf(plate: Storage): Container[] {
  return Object.entries(plate.wells ?? {}).flatMap(([position, well]) => {
    const parsed = containerSchema.safeParse(well);
    return parsed.success ? [{ ...parsed.data, gridPosition: parsed.data.gridPosition ?? position }] : [];
  });
}

/** "Where: Freezer A Shelf 2 (loc_2) [Shelf] → -80 °C Freezer A (loc_1) [Freezer]", or that it is nowhere. */
function whereLine(where: Place[]): string {
  return where.length > 0
    ? oneLine(`Where: ${where.map(placeName).join(" → ")}`)
    : "Where: not inside any location.";
}

/** A location: what is inside it at any depth, each with its path below the location. */
async function locationReply(
  client: LabdataClient,
  location: Storage,
  id: string,
  where: Place[],
  format: "markdown" | "json",
  ctx: LabdataCall,
) {
  const below = { ancestorStorageId: id };
  const places = await listStorages(client, "location", below, 0, INSIDE, ctx);
  const boxes = await listStorages(client, "box", below, 0, INSIDE, ctx);
  const plates = await listStorages(client, "plate", below, 0, INSIDE, ctx);
  const held = await listContainers(
    client,
    { ancestorStorageId: id, archiveReason: "NOT_ARCHIVED" },
    0,
    INSIDE,
    ctx,
  );
  // Containers in a box or plate are that box's or plate's contents; the loose ones sit in a location.
  const loose = held.items.filter((c) => !c.parentStorageId || c.parentStorageId.startsWith("loc_"));
  // Few enough to read at once: each box's and plate's containers under it, the whole answer in one call.
  const listed = held.exact && held.total === held.items.length && held.total <= LISTED_INSIDE;
  const { wells: _wells, ...record } = location;
  const inside = [...places.items, ...boxes.items, ...plates.items].map(({ wells: _w, ...item }) => item);
  const structured = { storage: record, where, containers: listed ? held.items : loose, inside };
  if (format === "json") return reply(structured, json(structured));
  const names = new Map(places.items.map((p) => [p.id ?? "", p] as const));
  const pathBelow = (parent: string | null | undefined): string => {
    const steps: string[] = [];
    for (let at = parent, depth = 0; at && at !== id && depth < 12; depth++) {
      const place = names.get(at);
      steps.push(place?.name ?? at);
      at = place?.parentStorageId;
    }
    return steps.length > 0 ? ` in ${steps.join(" → ")}` : "";
  };
  const line = (item: Storage, facts: Array<string | false | undefined | null>) =>
    oneLine(
      `- **${nameAndId(item.name, item.id)}**${[item.schema?.name && ` [${item.schema.name}]`, pathBelow(item.parentStorageId)].filter(Boolean).join("")}` +
        `${facts.filter(Boolean).length > 0 ? `: ${facts.filter(Boolean).join(", ")}` : ""}`,
    );
  const filled = (item: Storage) =>
    typeof item.filledPositions === "number" &&
    `${item.filledPositions}${typeof item.totalCapacity === "number" ? ` of ${item.totalCapacity}` : ""} positions filled`;
  const more = (what: string, page: { items: unknown[]; total: number; exact: boolean }) =>
    page.total > page.items.length && `The first ${page.items.length} of ${howMany(page)} ${what} are shown.`;
  const heldBy = (item: Storage) =>
    listed
      ? held.items
          .filter((c) => c.parentStorageId === item.id)
          .map((c) => `  ${containerLine({ ...c, parentStorageId: null })}`)
      : [];
  const section = (title: string, page: { items: Storage[]; total: number; exact: boolean }, what: string) =>
    page.items.length > 0 &&
    markdown(
      heading(2, title),
      page.items.flatMap((item) => [line(item, [filled(item)]), ...heldBy(item)]),
      more(what, page),
    );
  const empty = places.total + boxes.total + plates.total + held.total === 0;
  return reply(
    structured,
    markdown(
      heading(1, `Location ${nameAndId(location.name, location.id || id)}`),
      oneLine(
        [location.schema?.name, location.barcode && `barcode ${location.barcode}`].filter(Boolean).join(", "),
      ),
      whereLine(where),
      empty && "Nothing you may see is stored in it.",
      held.total > 0 &&
        (listed
          ? `${held.total} containers in all, each under its box or plate below.`
          : `${howMany(held)} containers in all, in its boxes, plates and locations; labdata_list_containers with storage_id=${id} lists them.`),
      section("Locations inside", places, "locations"),
      section("Boxes", boxes, "boxes"),
      section("Plates", plates, "plates"),
      loose.length > 0 && markdown(heading(2, "Containers not in a box or plate"), loose.map(containerLine)),
    ),
  );
}
