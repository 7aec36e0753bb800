// Who may read or write what, as in the interface. Users are members of organizations, teams, projects
// and folders; a membership covers everything below it and the highest role along the chain counts.
// Apps have no inheritance: they need a grant on each level they use (the folder, its project and the
// project's owning organization or team) and the lowest role along that chain counts.

import type { TenantState } from "../state/emulator-state.js";
import type { App, Folder, Project, Role, User } from "../state/model.js";

/** The acting party of a request: a person, or an app acting as its service user. */
export type Actor = { kind: "user"; user: User } | { kind: "app"; app: App; user: User };

const RANK: Record<Role, number> = { read: 1, write: 2 };

export function allows(role: Role | undefined, needed: Role): boolean {
  return role !== undefined && RANK[role] >= RANK[needed];
}

// A user's chain climbs from the project to its owner and, for a team, on to the team's organization.
function userChain(tenant: TenantState, project: Project): string[] {
  const chain = [project.id, project.ownerId];
  const team = tenant.teams.get(project.ownerId);
  if (team) chain.push(team.organizationId);
  return chain;
}

function highest(roles: Map<string, Role> | undefined, ids: string[]): Role | undefined {
  let best: Role | undefined;
  for (const id of ids) {
    const role = roles?.get(id);
    if (role && (!best || RANK[role] > RANK[best])) best = role;
  }
  return best;
}

function lowest(roles: Map<string, Role> | undefined, ids: string[]): Role | undefined {
  let worst: Role | undefined;
  for (const id of ids) {
    const role = roles?.get(id);
    if (!role) return undefined;
    if (!worst || RANK[role] < RANK[worst]) worst = role;
  }
  return worst;
}

export function roleOnProject(tenant: TenantState, actor: Actor, project: Project): Role | undefined {
  if (actor.kind === "app") return lowest(tenant.appGrants.get(actor.app.id), [project.id, project.ownerId]);
  return highest(tenant.memberships.get(actor.user.id), userChain(tenant, project));
}

export function roleOnFolder(tenant: TenantState, actor: Actor, folder: Folder): Role | undefined {
  const project = tenant.projects.get(folder.projectId);
  if (!project) return undefined;
  if (actor.kind === "app") {
    return lowest(tenant.appGrants.get(actor.app.id), [folder.id, project.id, project.ownerId]);
  }
  return highest(tenant.memberships.get(actor.user.id), [folder.id, ...userChain(tenant, project)]);
}

/** Folder ids the actor may read, worked out once per request for listings. */
export function readableFolderIds(tenant: TenantState, actor: Actor): Set<string> {
  const readable = new Set<string>();
  for (const folder of tenant.folders.values()) {
    if (allows(roleOnFolder(tenant, actor, folder), "read")) readable.add(folder.id);
  }
  return readable;
}
