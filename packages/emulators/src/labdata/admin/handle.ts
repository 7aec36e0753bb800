// The in-process admin handle: every operation of the HTTP admin API (/_admin/...) as a function, for
// tests and the sandbox. Both go through the same functions, so they cannot drift apart.
import type { Fault, FaultPlan } from "../../common/faults.js";
import type { LoggedRequest, RequestLog } from "../../common/request-log.js";
import type { AuditEntry } from "../state/audit-log.js";
import type { EmulatorState } from "../state/emulator-state.js";
import type { TenantSettings } from "../state/model.js";
import {
  addAppSecret,
  archiveApp,
  type CreateApiKeyInput,
  type CreateAppInput,
  type CreatedApiKey,
  type CreatedApp,
  type CreatedSecret,
  type CreateUserInput,
  createApiKey,
  createApp,
  createUser,
  deleteApiKey,
  deleteAppSecret,
  listApiKeys,
  listApps,
  listUsers,
  type UpdateUserInput,
  unarchiveApp,
  updateUser,
} from "./identities.js";
import { tenantOf } from "./lookup.js";
import {
  type AppGrantInput,
  type AppGrantView,
  type CreateFolderInput,
  type CreateOrganizationInput,
  type CreateProjectInput,
  type CreateTeamInput,
  createFolder,
  createOrganization,
  createProject,
  createTeam,
  listAppGrants,
  listFolders,
  listMemberships,
  listOrganizations,
  listProjects,
  listTeams,
  type MembershipInput,
  type MembershipView,
  removeAppGrant,
  removeMembership,
  setAppGrant,
  setMembership,
} from "./resources.js";
import {
  type AddDnaSequenceInput,
  type ArchiveInput,
  addDnaSequence,
  archiveDnaSequence,
  type SeedDnaSequencesInput,
  seedDnaSequences,
  unarchiveDnaSequence,
} from "./sequences.js";
import {
  type CreateTenantInput,
  createTenant,
  getSettings,
  listTenants,
  type TenantSettingsPatch,
  type TenantView,
  updateSettings,
} from "./tenants.js";
import type {
  ApiKeyView,
  AppView,
  FolderView,
  OrganizationView,
  ProjectView,
  TeamView,
  UserView,
} from "./views.js";

/** Throws AdminError (status 400, 404 or 409) when an operation is refused. */
export interface LabdataAdmin {
  createTenant(input: CreateTenantInput): TenantView;
  listTenants(): TenantView[];
  getSettings(tenant: string): TenantSettings;
  updateSettings(tenant: string, patch: TenantSettingsPatch): TenantSettings;

  createUser(tenant: string, input: CreateUserInput): UserView;
  updateUser(tenant: string, userId: string, patch: UpdateUserInput): UserView;
  listUsers(tenant: string): UserView[];
  createApiKey(tenant: string, input: CreateApiKeyInput): CreatedApiKey;
  listApiKeys(tenant: string, userId?: string): ApiKeyView[];
  deleteApiKey(tenant: string, keyId: string): void;

  createApp(tenant: string, input: CreateAppInput): CreatedApp;
  listApps(tenant: string): AppView[];
  archiveApp(tenant: string, appId: string): AppView;
  unarchiveApp(tenant: string, appId: string): AppView;
  addAppSecret(tenant: string, appId: string): CreatedSecret;
  deleteAppSecret(tenant: string, appId: string, secretId: string): void;

  createOrganization(tenant: string, input: CreateOrganizationInput): OrganizationView;
  createTeam(tenant: string, input: CreateTeamInput): TeamView;
  createProject(tenant: string, input: CreateProjectInput): ProjectView;
  createFolder(tenant: string, input: CreateFolderInput): FolderView;
  listOrganizations(tenant: string): OrganizationView[];
  listTeams(tenant: string): TeamView[];
  listProjects(tenant: string): ProjectView[];
  listFolders(tenant: string): FolderView[];
  setMembership(tenant: string, input: MembershipInput): MembershipView;
  removeMembership(tenant: string, userId: string, resourceId: string): void;
  listMemberships(tenant: string): MembershipView[];
  setAppGrant(tenant: string, input: AppGrantInput): AppGrantView;
  removeAppGrant(tenant: string, appId: string, resourceId: string): void;
  listAppGrants(tenant: string): AppGrantView[];

  addDnaSequence(tenant: string, input: AddDnaSequenceInput): Record<string, unknown>;
  seedDnaSequences(tenant: string, input: SeedDnaSequencesInput): { ids: string[] };
  archiveDnaSequence(tenant: string, sequenceId: string, input: ArchiveInput): Record<string, unknown>;
  unarchiveDnaSequence(tenant: string, sequenceId: string): Record<string, unknown>;

  auditLog(tenant: string, options?: { limit?: number }): AuditEntry[];
  clearAuditLog(tenant: string): void;
  requestLog(): LoggedRequest[];
  clearRequestLog(): void;
  /** Moves the emulator clock forward; returns the new time. */
  advanceClock(ms: number): Date;
  now(): Date;
  injectFault(fault: Fault, options?: { path?: string; times?: number }): void;
  clearFaults(): void;
}

export function createAdminHandle(
  state: EmulatorState,
  faults: FaultPlan,
  requests: RequestLog,
): LabdataAdmin {
  return {
    createTenant: (input) => createTenant(state, input),
    listTenants: () => listTenants(state),
    getSettings: (tenant) => getSettings(state, tenant),
    updateSettings: (tenant, patch) => updateSettings(state, tenant, patch),

    createUser: (tenant, input) => createUser(state, tenant, input),
    updateUser: (tenant, userId, patch) => updateUser(state, tenant, userId, patch),
    listUsers: (tenant) => listUsers(state, tenant),
    createApiKey: (tenant, input) => createApiKey(state, tenant, input),
    listApiKeys: (tenant, userId) => listApiKeys(state, tenant, userId),
    deleteApiKey: (tenant, keyId) => deleteApiKey(state, tenant, keyId),

    createApp: (tenant, input) => createApp(state, tenant, input),
    listApps: (tenant) => listApps(state, tenant),
    archiveApp: (tenant, appId) => archiveApp(state, tenant, appId),
    unarchiveApp: (tenant, appId) => unarchiveApp(state, tenant, appId),
    addAppSecret: (tenant, appId) => addAppSecret(state, tenant, appId),
    deleteAppSecret: (tenant, appId, secretId) => deleteAppSecret(state, tenant, appId, secretId),

    createOrganization: (tenant, input) => createOrganization(state, tenant, input),
    createTeam: (tenant, input) => createTeam(state, tenant, input),
    createProject: (tenant, input) => createProject(state, tenant, input),
    createFolder: (tenant, input) => createFolder(state, tenant, input),
    listOrganizations: (tenant) => listOrganizations(state, tenant),
    listTeams: (tenant) => listTeams(state, tenant),
    listProjects: (tenant) => listProjects(state, tenant),
    listFolders: (tenant) => listFolders(state, tenant),
    setMembership: (tenant, input) => setMembership(state, tenant, input),
    removeMembership: (tenant, userId, resourceId) => removeMembership(state, tenant, userId, resourceId),
    listMemberships: (tenant) => listMemberships(state, tenant),
    setAppGrant: (tenant, input) => setAppGrant(state, tenant, input),
    removeAppGrant: (tenant, appId, resourceId) => removeAppGrant(state, tenant, appId, resourceId),
    listAppGrants: (tenant) => listAppGrants(state, tenant),

    addDnaSequence: (tenant, input) => addDnaSequence(state, tenant, input),
    seedDnaSequences: (tenant, input) => seedDnaSequences(state, tenant, input),
    archiveDnaSequence: (tenant, id, input) => archiveDnaSequence(state, tenant, id, input),
    unarchiveDnaSequence: (tenant, id) => unarchiveDnaSequence(state, tenant, id),

    auditLog: (tenant, options) => tenantOf(state, tenant).audit.entries(options?.limit),
    clearAuditLog: (tenant) => tenantOf(state, tenant).audit.clear(),
    requestLog: () => requests.entries(),
    clearRequestLog: () => requests.clear(),
    advanceClock: (ms) => {
      state.clock.advance(ms);
      return new Date(state.clock.now());
    },
    now: () => new Date(state.clock.now()),
    injectFault: (fault, options) => faults.inject(fault, options),
    clearFaults: () => faults.clear(),
  };
}
