// The permission structure: organizations, their teams, projects owned by either, folders in
// projects; user memberships and app grants on any of them.
import { z } from "zod";
import type { EmulatorState, TenantState } from "../state/emulator-state.js";
import { ID_PREFIX } from "../state/ids.js";
import type { Folder, Project, Role } from "../state/model.js";
import { invalid, missing, validated } from "./admin-error.js";
import { recordOf, tenantOf } from "./lookup.js";
import {
  type FolderView,
  folderView,
  type OrganizationView,
  organizationView,
  type ProjectView,
  projectView,
  type TeamView,
  teamView,
} from "./views.js";

const name = z.string().trim().min(1).max(200);
const id = z.string().min(1).max(100);
const role = z.enum(["read", "write"]);

const createOrganizationSchema = z.object({ name }).strict();
const createTeamSchema = z.object({ name, organizationId: id }).strict();
const createProjectSchema = z.object({ name, ownerId: id }).strict();
const createFolderSchema = z.object({ name, projectId: id }).strict();
const membershipSchema = z.object({ userId: id, resourceId: id, role }).strict();
const grantSchema = z.object({ appId: id, resourceId: id, role }).strict();

export type CreateOrganizationInput = z.infer<typeof createOrganizationSchema>;
export type CreateTeamInput = z.infer<typeof createTeamSchema>;
export type CreateProjectInput = z.infer<typeof createProjectSchema>;
export type CreateFolderInput = z.infer<typeof createFolderSchema>;
export type MembershipInput = z.infer<typeof membershipSchema>;
export type AppGrantInput = z.infer<typeof grantSchema>;

export interface MembershipView {
  userId: string;
  resourceId: string;
  role: Role;
}

export interface AppGrantView {
  appId: string;
  resourceId: string;
  role: Role;
}

function handleOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function assertResource(tenant: TenantState, resourceId: string): void {
  const known =
    tenant.organizations.has(resourceId) ||
    tenant.teams.has(resourceId) ||
    tenant.projects.has(resourceId) ||
    tenant.folders.has(resourceId);
  if (!known) throw missing(`no organization, team, project or folder '${resourceId}'`);
}

export function createOrganization(
  state: EmulatorState,
  tenantName: string,
  input: CreateOrganizationInput,
): OrganizationView {
  const tenant = tenantOf(state, tenantName);
  const { name } = validated(createOrganizationSchema, input);
  const org = {
    id: state.ids.next(ID_PREFIX.organization),
    name,
    handle: handleOf(name),
    createdAt: state.clock.now(),
  };
  tenant.organizations.set(org.id, org);
  return organizationView(org);
}

export function createTeam(state: EmulatorState, tenantName: string, input: CreateTeamInput): TeamView {
  const tenant = tenantOf(state, tenantName);
  const { name, organizationId } = validated(createTeamSchema, input);
  recordOf(tenant.organizations, organizationId, "organization");
  const team = {
    id: state.ids.next(ID_PREFIX.team),
    name,
    handle: handleOf(name),
    organizationId,
    createdAt: state.clock.now(),
  };
  tenant.teams.set(team.id, team);
  return teamView(team);
}

export function createProject(
  state: EmulatorState,
  tenantName: string,
  input: CreateProjectInput,
): ProjectView {
  const tenant = tenantOf(state, tenantName);
  const { name, ownerId } = validated(createProjectSchema, input);
  if (!tenant.organizations.has(ownerId) && !tenant.teams.has(ownerId)) {
    throw missing(`no organization or team '${ownerId}' to own the project`);
  }
  const now = state.clock.now();
  const project: Project = {
    id: state.ids.next(ID_PREFIX.project),
    name,
    ownerId,
    createdAt: now,
    modifiedAt: now,
    archiveReason: null,
  };
  tenant.projects.set(project.id, project);
  return projectView(project);
}

export function createFolder(state: EmulatorState, tenantName: string, input: CreateFolderInput): FolderView {
  const tenant = tenantOf(state, tenantName);
  const { name, projectId } = validated(createFolderSchema, input);
  recordOf(tenant.projects, projectId, "project");
  const now = state.clock.now();
  const folder: Folder = {
    id: state.ids.next(ID_PREFIX.folder),
    name,
    projectId,
    createdAt: now,
    modifiedAt: now,
    archiveReason: null,
  };
  tenant.folders.set(folder.id, folder);
  return folderView(folder);
}

export const listOrganizations = (state: EmulatorState, tenantName: string): OrganizationView[] =>
  [...tenantOf(state, tenantName).organizations.values()].map(organizationView);
export const listTeams = (state: EmulatorState, tenantName: string): TeamView[] =>
  [...tenantOf(state, tenantName).teams.values()].map(teamView);
export const listProjects = (state: EmulatorState, tenantName: string): ProjectView[] =>
  [...tenantOf(state, tenantName).projects.values()].map(projectView);
export const listFolders = (state: EmulatorState, tenantName: string): FolderView[] =>
  [...tenantOf(state, tenantName).folders.values()].map(folderView);

/** Gives a user `role` on an organization, team, project or folder (replacing any role there). */
export function setMembership(
  state: EmulatorState,
  tenantName: string,
  input: MembershipInput,
): MembershipView {
  const tenant = tenantOf(state, tenantName);
  const { userId, resourceId, role } = validated(membershipSchema, input);
  const user = recordOf(tenant.users, userId, "user");
  if (user.kind === "app") throw invalid("an app's access is given by app grants, not memberships");
  assertResource(tenant, resourceId);
  const roles = tenant.memberships.get(userId) ?? new Map<string, Role>();
  roles.set(resourceId, role);
  tenant.memberships.set(userId, roles);
  return { userId, resourceId, role };
}

export function removeMembership(
  state: EmulatorState,
  tenantName: string,
  userId: string,
  resourceId: string,
): void {
  const roles = tenantOf(state, tenantName).memberships.get(userId);
  if (!roles?.delete(resourceId)) throw missing(`user '${userId}' has no membership on '${resourceId}'`);
}

export function listMemberships(state: EmulatorState, tenantName: string): MembershipView[] {
  const views: MembershipView[] = [];
  for (const [userId, roles] of tenantOf(state, tenantName).memberships) {
    for (const [resourceId, role] of roles) views.push({ userId, resourceId, role });
  }
  return views;
}

/** Grants an app `role` on one level; an app needs a grant on every level it uses. */
export function setAppGrant(state: EmulatorState, tenantName: string, input: AppGrantInput): AppGrantView {
  const tenant = tenantOf(state, tenantName);
  const { appId, resourceId, role } = validated(grantSchema, input);
  recordOf(tenant.apps, appId, "app");
  assertResource(tenant, resourceId);
  const roles = tenant.appGrants.get(appId) ?? new Map<string, Role>();
  roles.set(resourceId, role);
  tenant.appGrants.set(appId, roles);
  return { appId, resourceId, role };
}

export function removeAppGrant(
  state: EmulatorState,
  tenantName: string,
  appId: string,
  resourceId: string,
): void {
  const roles = tenantOf(state, tenantName).appGrants.get(appId);
  if (!roles?.delete(resourceId)) throw missing(`app '${appId}' has no grant on '${resourceId}'`);
}

export function listAppGrants(state: EmulatorState, tenantName: string): AppGrantView[] {
  const views: AppGrantView[] = [];
  for (const [appId, roles] of tenantOf(state, tenantName).appGrants) {
    for (const [resourceId, role] of roles) views.push({ appId, resourceId, role });
  }
  return views;
}
