// Inventory: GET /locations, /boxes, /plates, /containers (lists) and each by id, and
// GET /boxes/{id}/contents. Boxes, plates and containers are readable as their project is (a list
// holds only those, a get of another is a 403); locations are the lab's shared furniture, readable by
// anyone in the tenant. Containers filter by what they hold (storageContentsId) and where they are
// (ancestorStorageId, any level up).
import type { PathParams } from "../../common/path-pattern.js";
import { type HttpResponse, jsonResponse } from "../../common/response.js";
import { badRequest, forbidden, notFound } from "../api/errors.js";
import { matchesQuery, paginate, parseListQuery } from "../api/listing.js";
import { allows, roleOnProject } from "../auth/permissions.js";
import type { Box, Container, Location, Plate } from "../registry/model.js";
import { type RegistryStore, registryOf } from "../registry/store.js";
import {
  boxToWire,
  containerToWire,
  containerWithCoordinates,
  locationToWire,
  plateToWire,
} from "../registry/wire.js";
import type { RouteContext } from "./context.js";
import { createdFilter } from "./created-filter.js";
import { listResponse, listScope } from "./list-response.js";

function canRead(ctx: RouteContext, item: { projectId: string }): boolean {
  const project = ctx.tenant.projects.get(item.projectId);
  return project !== undefined && allows(roleOnProject(ctx.tenant, ctx.principal.actor, project), "read");
}

/** Whether `id` is `ancestorId` or sits below it, following parentStorageId (bounded by the depth). */
function isBelow(store: RegistryStore, id: string | null, ancestorId: string): boolean {
  let current = id;
  for (let depth = 0; current !== null && depth < 32; depth++) {
    if (current === ancestorId) return true;
    const parent =
      store.locations.get(current) ??
      store.boxes.get(current) ??
      store.plates.get(current) ??
      store.containers.get(current);
    current = parent?.parentStorageId ?? null;
  }
  return false;
}

function listOf<T extends Location | Box | Plate | Container>(
  ctx: RouteContext,
  endpoint: string,
  items: Iterable<T>,
  visible: (item: T) => boolean,
  extra: Array<string | undefined> = [],
) {
  const params = ctx.url.searchParams;
  const ancestor = params.get("ancestorStorageId") ?? undefined;
  const created = createdFilter(params);
  const query = parseListQuery(params, listScope(ctx, endpoint, [ancestor, ...extra, ...created.binding]));
  const store = registryOf(ctx.tenant);
  const matches: T[] = [];
  for (const item of items) {
    if (!visible(item) || !matchesQuery(item, query) || !created.passes(item)) continue;
    if (ancestor !== undefined && !isBelow(store, item.parentStorageId, ancestor)) continue;
    matches.push(item);
  }
  return paginate(matches, query, ctx.pageTokens);
}

export function listLocations(ctx: RouteContext): HttpResponse {
  const page = listOf(ctx, "locations", registryOf(ctx.tenant).locations.values(), () => true);
  return listResponse("locations", page, (item) => JSON.stringify(locationToWire(ctx.tenant, item)));
}

export function getLocation(ctx: RouteContext, params: PathParams): HttpResponse {
  const id = params.id ?? "";
  ctx.resourceId = id;
  const location = registryOf(ctx.tenant).locations.get(id);
  if (!location) throw notFound(`No location ${id}`);
  return jsonResponse(200, locationToWire(ctx.tenant, location));
}

export function listBoxes(ctx: RouteContext): HttpResponse {
  const page = listOf(ctx, "boxes", registryOf(ctx.tenant).boxes.values(), (box) => canRead(ctx, box));
  return listResponse("boxes", page, (item) => JSON.stringify(boxToWire(ctx.tenant, item)));
}

function readableBox(ctx: RouteContext, id: string): Box {
  ctx.resourceId = id;
  const box = registryOf(ctx.tenant).boxes.get(id);
  if (!box) throw notFound(`No box ${id}`);
  if (!canRead(ctx, box)) throw forbidden(`You cannot read box ${id}`);
  return box;
}

export function getBox(ctx: RouteContext, params: PathParams): HttpResponse {
  return jsonResponse(200, boxToWire(ctx.tenant, readableBox(ctx, params.id ?? "")));
}

/** The containers of a box in grid order (row by row), with their positions. */
export function listBoxContents(ctx: RouteContext, params: PathParams): HttpResponse {
  const box = readableBox(ctx, params.id ?? "");
  const query = parseListQuery(ctx.url.searchParams, listScope(ctx, "box-contents", [box.id]));
  const inBox = [...registryOf(ctx.tenant).containers.values()]
    .filter((container) => container.parentStorageId === box.id)
    .map((container) => ({ ...container, name: gridKey(container.position), realName: container.name }));
  const page = paginate(inBox, { ...query, sort: { field: "name", direction: 1 } }, ctx.pageTokens);
  return listResponse("containers", page, ({ realName, ...container }) =>
    JSON.stringify(
      containerWithCoordinates(ctx.tenant, ctx.principal.actor, { ...container, name: realName }, box),
    ),
  );
}

/** "C4" -> "03:004", so that positions sort row by row, then by column. */
function gridKey(position: string | null): string {
  if (!position) return "~";
  const row = position.charCodeAt(0) - 64;
  return `${String(row).padStart(2, "0")}:${position.slice(1).padStart(3, "0")}`;
}

export function listPlates(ctx: RouteContext): HttpResponse {
  const page = listOf(ctx, "plates", registryOf(ctx.tenant).plates.values(), (plate) => canRead(ctx, plate));
  return listResponse("plates", page, (item) =>
    JSON.stringify(plateToWire(ctx.tenant, ctx.principal.actor, item)),
  );
}

export function getPlate(ctx: RouteContext, params: PathParams): HttpResponse {
  const id = params.id ?? "";
  ctx.resourceId = id;
  const plate = registryOf(ctx.tenant).plates.get(id);
  if (!plate) throw notFound(`No plate ${id}`);
  if (!canRead(ctx, plate)) throw forbidden(`You cannot read plate ${id}`);
  return jsonResponse(200, plateToWire(ctx.tenant, ctx.principal.actor, plate));
}

export function listContainers(ctx: RouteContext): HttpResponse {
  const params = ctx.url.searchParams;
  const holding = params.get("storageContentsId") ?? undefined;
  if (holding !== undefined && holding.trim() === "") throw badRequest("storageContentsId must not be empty");
  const page = listOf(
    ctx,
    "containers",
    registryOf(ctx.tenant).containers.values(),
    (container) =>
      canRead(ctx, container) &&
      (holding === undefined || container.contents.some((content) => content.entityId === holding)),
    [holding],
  );
  return listResponse("containers", page, (item) =>
    JSON.stringify(containerToWire(ctx.tenant, ctx.principal.actor, item)),
  );
}

export function getContainer(ctx: RouteContext, params: PathParams): HttpResponse {
  const id = params.id ?? "";
  ctx.resourceId = id;
  const container = registryOf(ctx.tenant).containers.get(id);
  if (!container) throw notFound(`No container ${id}`);
  if (!canRead(ctx, container)) throw forbidden(`You cannot read container ${id}`);
  return jsonResponse(200, containerToWire(ctx.tenant, ctx.principal.actor, container));
}
