// What admin operations return: records without secret hashes, times as ISO strings.
import type { ApiKey, App, Folder, Organization, Project, Team, User } from "../state/model.js";

const iso = (ms: number): string => new Date(ms).toISOString();

export interface UserView {
  id: string;
  handle: string;
  name: string;
  email: string;
  kind: "person" | "app";
  appId: string | null;
  status: "active" | "suspended";
  createdAt: string;
  modifiedAt: string;
}

export function userView(user: User): UserView {
  const { id, handle, name, email, kind, appId, status } = user;
  return {
    id,
    handle,
    name,
    email,
    kind,
    appId,
    status,
    createdAt: iso(user.createdAt),
    modifiedAt: iso(user.modifiedAt),
  };
}

export interface ApiKeyView {
  id: string;
  userId: string;
  createdAt: string;
}

export function apiKeyView(key: ApiKey): ApiKeyView {
  return { id: key.id, userId: key.userId, createdAt: iso(key.createdAt) };
}

export interface AppView {
  id: string;
  name: string;
  clientId: string;
  status: "active" | "archived";
  serviceUserId: string;
  secrets: { id: string; createdAt: string }[];
  createdAt: string;
}

export function appView(app: App): AppView {
  const { id, name, clientId, status, serviceUserId } = app;
  const secrets = app.secrets.map((s) => ({ id: s.id, createdAt: iso(s.createdAt) }));
  return { id, name, clientId, status, serviceUserId, secrets, createdAt: iso(app.createdAt) };
}

export interface OrganizationView {
  id: string;
  name: string;
  handle: string;
}

export function organizationView(org: Organization): OrganizationView {
  return { id: org.id, name: org.name, handle: org.handle };
}

export interface TeamView {
  id: string;
  name: string;
  handle: string;
  organizationId: string;
}

export function teamView(team: Team): TeamView {
  return { id: team.id, name: team.name, handle: team.handle, organizationId: team.organizationId };
}

export interface ProjectView {
  id: string;
  name: string;
  ownerId: string;
}

export function projectView(project: Project): ProjectView {
  return { id: project.id, name: project.name, ownerId: project.ownerId };
}

export interface FolderView {
  id: string;
  name: string;
  projectId: string;
}

export function folderView(folder: Folder): FolderView {
  return { id: folder.id, name: folder.name, projectId: folder.projectId };
}
