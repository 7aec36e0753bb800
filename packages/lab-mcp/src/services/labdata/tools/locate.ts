import { z } from "zod";
import { responseFormat } from "../../../core/inputs.js";
import { heading, json, markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { oneLine } from "../../../core/untrusted-text.js";
import { getContainer, listContainers } from "../api/inventory.js";
import { type Located, locateContainer } from "../api/locate.js";
import type { LabdataClient } from "../client.js";
import { resolveEntity } from "../entity-ref.js";
import { contentsText, placeName, quantityText } from "../format/inventory-markdown.js";
import { nameAndId } from "../format/labels.js";
import { howMany } from "../list-page.js";
import { type IdKind, pastedId } from "../pasted-id.js";
import { containerBrief } from "../records/brief.js";

/** What the one id names, entity or container (con_...), also in a web address. */
const ENTITY_OR_CONTAINER: IdKind = { name: "an entity or a container" };
const isContainerId = (id: string) => id.startsWith("con_");

/** Containers located per call at most: each costs a few requests. */
const MAX_CONTAINERS = 10;

/** A place as the text names it: name (id) [schema]; json adds its kind and whether you may read it. */
const placeSchema = z.looseObject({
  id: z.string(),
  name: z.string().nullable(),
  schema: z.string().nullable(),
});

export const locate = defineTool({
  name: "labdata_locate",
  title: "Locate in Inventory",
  description:
    "Where is it? The containers holding an entity ('where is the glycerol stock of X?') or one container: quantity, position, locations up to the room.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "search",
  // One field, required: what it names (an entity or a container) tells which question is asked.
  input: {
    id: pastedId(
      "An entity (id, registry id or page address), or one container (con_...).",
      ENTITY_OR_CONTAINER,
    ),
    response_format: responseFormat,
  },
  output: {
    total: z.number().int(),
    total_is_exact: z.boolean(),
    located: z.array(
      z.object({
        container: containerBrief,
        position: z.string().nullable(),
        chain: z.array(placeSchema),
      }),
    ),
  },
  async handler({ id, response_format }, ctx, client: LabdataClient) {
    const named = id;
    const container_id = isContainerId(named) ? named : undefined;
    const entity_id = container_id ? undefined : (await resolveEntity(client, named, undefined, ctx)).id;
    let containers = container_id ? [await getContainer(client, container_id, ctx)] : [];
    let total = containers.length;
    let exact = true;
    if (entity_id) {
      const found = await listContainers(
        client,
        { storageContentsId: entity_id, archiveReason: "NOT_ARCHIVED" },
        0,
        MAX_CONTAINERS,
        ctx,
      );
      containers = found.items;
      total = found.total;
      exact = found.exact;
    }
    const located: Located[] = [];
    for (const container of containers) located.push(await locateContainer(client, container, ctx));
    const structured = { total, total_is_exact: exact, located };
    if (response_format === "json") return reply(structured, json(structured));
    if (located.length === 0) {
      return reply(
        structured,
        `No container you may see holds ${named === entity_id ? named : `${named} (${entity_id})`}. It may be stored in a project you cannot read, or not stored at all.`,
      );
    }
    const subject = named;
    return reply(
      structured,
      markdown(
        heading(1, `Where ${subject} is`),
        total > located.length &&
          `${howMany({ total, exact })} containers hold it; the first ${located.length} are shown.`,
        located.map(placeText),
      ),
    );
  },
});

function placeText(item: Located): string {
  const { container, position, chain } = item;
  const [first, ...rest] = chain;
  const where = first
    ? [`${position ? `position ${position} of ` : "in "}${placeName(first)}`, ...rest.map(placeName)].join(
        " → ",
      )
    : "not in any storage";
  const facts = [
    quantityText(container.quantity),
    container.barcode ? `barcode ${container.barcode}` : undefined,
  ].filter(Boolean);
  const holds = contentsText(container);
  return [
    oneLine(
      `- **${nameAndId(container.name, container.id)}**${facts.length ? ` (${facts.join(", ")})` : ""}`,
    ),
    `  - Where: ${oneLine(where)}`,
    holds ? `  - Holds: ${oneLine(holds)}` : undefined,
  ]
    .filter(Boolean)
    .join("\n");
}
