// The tenant's people and places: users, projects, folders.
import type { TenantState } from "../state/emulator-state.js";
import { at, column, type TableSpec } from "./table-spec.js";

export function userTable(tenant: TenantState): TableSpec {
  return {
    name: "user",
    display: "Users",
    description: "people of the tenant and the service users apps act as",
    columns: [
      column("id", "text", "ID"),
      column("handle", "text", "Handle"),
      column("name", "text", "Name"),
      column("email", "text", "Email"),
      column("is_app", "boolean", "Is an app"),
      column("is_suspended", "boolean", "Suspended"),
      column("created_at", "timestamptz", "Created at"),
      column("modified_at", "timestamptz", "Modified at"),
    ],
    access: { by: "tenant" },
    archivedColumn: null,
    rows: [...tenant.users.values()].map((user) => ({
      id: user.id,
      handle: user.handle,
      name: user.name,
      email: user.email,
      is_app: user.kind === "app",
      is_suspended: user.status === "suspended",
      created_at: at(user.createdAt),
      modified_at: at(user.modifiedAt),
    })),
  };
}

export function projectTable(tenant: TenantState): TableSpec {
  return {
    name: "project",
    display: "Projects",
    description: "projects: every record lives in a folder of one",
    columns: [
      column("id", "text", "ID"),
      column("name", "text", "Name"),
      column("owner_id", "text", "Owner (organization or team)"),
      column("created_at", "timestamptz", "Created at"),
      column("modified_at", "timestamptz", "Modified at"),
      column("archived$", "boolean", "Archived"),
      column("archive_purpose$", "text", "Archive reason"),
    ],
    access: { by: "project", column: "id" },
    archivedColumn: "archived$",
    rows: [...tenant.projects.values()].map((project) => ({
      id: project.id,
      name: project.name,
      owner_id: project.ownerId,
      created_at: at(project.createdAt),
      modified_at: at(project.modifiedAt),
      archived$: project.archiveReason !== null,
      archive_purpose$: project.archiveReason,
    })),
  };
}

export function folderTable(tenant: TenantState): TableSpec {
  return {
    name: "folder",
    display: "Folders",
    description: "folders of projects; entities, entries and workflows are in one",
    columns: [
      column("id", "text", "ID"),
      column("name", "text", "Name"),
      column("project_id", "text", "Project", { linksTo: "project" }),
      column("created_at", "timestamptz", "Created at"),
      column("modified_at", "timestamptz", "Modified at"),
      column("archived$", "boolean", "Archived"),
      column("archive_purpose$", "text", "Archive reason"),
    ],
    access: { by: "folder", column: "id" },
    archivedColumn: "archived$",
    rows: [...tenant.folders.values()].map((folder) => ({
      id: folder.id,
      name: folder.name,
      project_id: folder.projectId,
      created_at: at(folder.createdAt),
      modified_at: at(folder.modifiedAt),
      archived$: folder.archiveReason !== null,
      archive_purpose$: folder.archiveReason,
    })),
  };
}
