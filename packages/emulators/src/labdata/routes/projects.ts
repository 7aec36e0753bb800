// GET /api/v2/projects: the projects the caller may read, so their ids can be found.

import type { HttpResponse } from "../../common/response.js";
import { matchesQuery, paginate, parseListQuery } from "../api/listing.js";
import { projectToWire } from "../api/shapes.js";
import { allows, roleOnProject } from "../auth/permissions.js";
import type { Project } from "../state/model.js";
import type { RouteContext } from "./context.js";
import { listResponse, listScope } from "./list-response.js";

export function listReadableProjects(ctx: RouteContext): HttpResponse {
  const query = parseListQuery(ctx.url.searchParams, listScope(ctx, "projects"));
  const { tenant, principal } = ctx;
  const matches: Project[] = [];
  for (const project of tenant.projects.values()) {
    if (allows(roleOnProject(tenant, principal.actor, project), "read") && matchesQuery(project, query)) {
      matches.push(project);
    }
  }
  const page = paginate(matches, query, ctx.pageTokens);
  return listResponse("projects", page, (project) => JSON.stringify(projectToWire(tenant, project)));
}
