// GET /api/v2/folders: the folders the caller may read, optionally of one project it may read.

import type { HttpResponse } from "../../common/response.js";
import { badRequest, forbidden } from "../api/errors.js";
import { matchesQuery, paginate, parseListQuery } from "../api/listing.js";
import { folderToWire } from "../api/shapes.js";
import { allows, roleOnFolder, roleOnProject } from "../auth/permissions.js";
import type { Folder } from "../state/model.js";
import type { RouteContext } from "./context.js";
import { listResponse, listScope } from "./list-response.js";

export function listReadableFolders(ctx: RouteContext): HttpResponse {
  const projectId = ctx.url.searchParams.get("projectId") ?? undefined;
  const query = parseListQuery(ctx.url.searchParams, listScope(ctx, "folders", [projectId]));
  const { tenant, principal } = ctx;
  if (projectId !== undefined) {
    const project = tenant.projects.get(projectId);
    if (!project) throw badRequest(`projectId: no project '${projectId}'`);
    if (!allows(roleOnProject(tenant, principal.actor, project), "read")) {
      throw forbidden(`You cannot read project ${projectId}`);
    }
  }
  const matches: Folder[] = [];
  for (const folder of tenant.folders.values()) {
    if (projectId !== undefined && folder.projectId !== projectId) continue;
    if (allows(roleOnFolder(tenant, principal.actor, folder), "read") && matchesQuery(folder, query)) {
      matches.push(folder);
    }
  }
  const page = paginate(matches, query, ctx.pageTokens);
  return listResponse("folders", page, (folder) => JSON.stringify(folderToWire(folder)));
}
