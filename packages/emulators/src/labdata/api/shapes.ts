// Records as the API returns them (the platform's real-world shapes, held to its OpenAPI document by
// test/contract): ISO times, creator and owner summaries, archiveRecord null or {reason}; a field the
// document does not mark nullable is left out rather than sent as null.

import type { TenantState } from "../state/emulator-state.js";
import type { DnaSequence, Folder, Project, User } from "../state/model.js";

const iso = (ms: number): string => new Date(ms).toISOString();
const archiveRecord = (reason: string | null): { reason: string } | null =>
  reason === null ? null : { reason };

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function userSummary(
  user: User | undefined,
): { id: string; handle: string; name: string } | undefined {
  return user ? { id: user.id, handle: user.handle, name: user.name } : undefined;
}

/** The document's Primer has oligoId as a plain string: left out when the primer has no oligo. */
function primerToWire({ oligoId, ...primer }: DnaSequence["primers"][number]): Record<string, unknown> {
  return oligoId === null ? primer : { ...primer, oligoId };
}

export function userToWire(user: User): Record<string, unknown> {
  return {
    id: user.id,
    handle: user.handle,
    name: user.name,
    email: user.email,
    isSuspended: user.status === "suspended",
    apiKeyLastChangedAt: user.apiKeyLastChangedAt === null ? null : iso(user.apiKeyLastChangedAt),
    createdAt: iso(user.createdAt),
    modifiedAt: iso(user.modifiedAt),
  };
}

export function sequenceToWire(tenant: TenantState, seq: DnaSequence): Record<string, unknown> {
  const folder = tenant.folders.get(seq.folderId);
  const folderPart = folder ? `${folder.id}-${slug(folder.name)}` : seq.folderId;
  return {
    id: seq.id,
    name: seq.name,
    bases: seq.bases,
    length: seq.bases.length,
    isCircular: seq.isCircular,
    aliases: seq.aliases,
    folderId: seq.folderId,
    entityRegistryId: seq.entityRegistryId,
    schema: seq.schema,
    fields: seq.fields,
    customFields: seq.customFields,
    annotations: seq.annotations,
    primers: seq.primers.map(primerToWire),
    translations: seq.translations,
    creator: userSummary(tenant.users.get(seq.creatorId)),
    createdAt: iso(seq.createdAt),
    modifiedAt: iso(seq.modifiedAt),
    webURL: `${tenant.baseUrl}/f/${folderPart}/seq/${seq.id}-${slug(seq.name)}/edit`,
    archiveRecord: archiveRecord(seq.archiveReason),
  };
}

/** The JSON text of a sequence, cached: reading one by id is the hot path of every benchmark. */
export function sequenceJson(tenant: TenantState, seq: DnaSequence): string {
  let json = tenant.sequenceJson.get(seq.id);
  if (json === undefined) {
    json = JSON.stringify(sequenceToWire(tenant, seq));
    tenant.sequenceJson.set(seq.id, json);
  }
  return json;
}

export function projectToWire(tenant: TenantState, project: Project): Record<string, unknown> {
  const owner = tenant.organizations.get(project.ownerId) ?? tenant.teams.get(project.ownerId);
  return {
    id: project.id,
    name: project.name,
    // Organization or UserSummary, never null in the document: left out when unknown.
    owner: owner ? { id: owner.id, handle: owner.handle, name: owner.name } : undefined,
    createdAt: iso(project.createdAt),
    modifiedAt: iso(project.modifiedAt),
    archiveRecord: archiveRecord(project.archiveReason),
  };
}

export function folderToWire(folder: Folder): Record<string, unknown> {
  return {
    id: folder.id,
    name: folder.name,
    parentFolderId: null,
    projectId: folder.projectId,
    createdAt: iso(folder.createdAt),
    modifiedAt: iso(folder.modifiedAt),
    archiveRecord: archiveRecord(folder.archiveReason),
  };
}
