// Who may read what of the notebook, with the platform's one permission model (auth/permissions.ts):
// an entry and a workflow's tasks by their folder, a template by its collection's project, an assay
// run or result by its project.

import type { Actor } from "../auth/permissions.js";
import { allows, roleOnFolder, roleOnProject } from "../auth/permissions.js";
import type { TenantState } from "../state/emulator-state.js";
import type { Role } from "../state/model.js";

export function mayOnFolder(tenant: TenantState, actor: Actor, folderId: string, needed: Role): boolean {
  const folder = tenant.folders.get(folderId);
  return folder !== undefined && allows(roleOnFolder(tenant, actor, folder), needed);
}

export function mayOnProject(tenant: TenantState, actor: Actor, projectId: string, needed: Role): boolean {
  const project = tenant.projects.get(projectId);
  return project !== undefined && allows(roleOnProject(tenant, actor, project), needed);
}

/** Project ids the actor may read, worked out once per request for listings. */
export function readableProjectIds(tenant: TenantState, actor: Actor): Set<string> {
  const readable = new Set<string>();
  for (const project of tenant.projects.values()) {
    if (allows(roleOnProject(tenant, actor, project), "read")) readable.add(project.id);
  }
  return readable;
}
