// The platform's records as the emulator keeps them in memory. Times are epoch milliseconds of the
// emulator clock; secrets are stored only as hashes.

export type Role = "read" | "write";
export type UserStatus = "active" | "suspended";
export type AppStatus = "active" | "archived";

export interface User {
  id: string;
  handle: string;
  name: string;
  email: string;
  /** "app": the service user an app acts as, so its actions have an acting user for the audit log. */
  kind: "person" | "app";
  appId: string | null;
  status: UserStatus;
  createdAt: number;
  modifiedAt: number;
  apiKeyLastChangedAt: number | null;
}

export interface ApiKey {
  id: string;
  userId: string;
  hash: string;
  createdAt: number;
}

export interface ClientSecret {
  id: string;
  hash: string;
  createdAt: number;
}

export interface App {
  id: string;
  name: string;
  clientId: string;
  status: AppStatus;
  serviceUserId: string;
  secrets: ClientSecret[];
  createdAt: number;
  modifiedAt: number;
}

export interface AccessToken {
  appId: string;
  expiresAt: number;
}

export interface Organization {
  id: string;
  name: string;
  handle: string;
  createdAt: number;
}

export interface Team {
  id: string;
  name: string;
  handle: string;
  organizationId: string;
  createdAt: number;
}

export interface Project {
  id: string;
  name: string;
  /** An organization or a team. */
  ownerId: string;
  createdAt: number;
  modifiedAt: number;
  archiveReason: string | null;
}

export interface Folder {
  id: string;
  name: string;
  projectId: string;
  createdAt: number;
  modifiedAt: number;
  archiveReason: string | null;
}

/** 0-based, end exclusive; on a circular sequence an annotation may wrap (end < start). */
export interface Annotation {
  start: number;
  end: number;
  strand: -1 | 0 | 1;
  type: string;
  name: string;
  color: string;
  notes?: string;
  customFields?: Array<{ name: string; value: string }>;
}

export interface Primer {
  name: string;
  bases: string;
  start: number;
  end: number;
  strand: -1 | 1;
  bindPosition: number;
  overhangLength: number;
  color: string;
  oligoId: string | null;
}

export interface Translation {
  start: number;
  end: number;
  strand: -1 | 1;
  aminoAcids: string;
  regions: { start: number; end: number }[];
}

export type FieldScalar = string | number | boolean | null;

export interface FieldValue {
  value: FieldScalar;
  type: "text" | "integer" | "float" | "boolean";
  displayValue: string | null;
  isMulti: false;
  textValue: string | null;
}

export interface SchemaRef {
  id: string;
  name: string;
}

export interface DnaSequence {
  id: string;
  name: string;
  bases: string;
  isCircular: boolean;
  aliases: string[];
  folderId: string;
  entityRegistryId: string | null;
  schema: SchemaRef | null;
  fields: Record<string, FieldValue>;
  customFields: Record<string, { value: string }>;
  annotations: Annotation[];
  primers: Primer[];
  translations: Translation[];
  creatorId: string;
  createdAt: number;
  modifiedAt: number;
  archiveReason: string | null;
}

export interface RateLimitSetting {
  requests: number;
  windowMs: number;
}

export interface OidcSetting {
  configurationUrl: string;
  audience: string;
}

export interface TenantSettings {
  /** null: the limit is lifted. */
  rateLimit: RateLimitSetting | null;
  /** CIDRs; empty: any address may call. */
  ipAllowlist: string[];
  /** null: OpenID Connect is not set up for the tenant, ID tokens are refused. */
  oidc: OidcSetting | null;
  accessTokenLifetimeSec: number;
}

export const DEFAULT_SETTINGS: TenantSettings = {
  rateLimit: { requests: 100, windowMs: 10_000 },
  ipAllowlist: [],
  oidc: null,
  accessTokenLifetimeSec: 3600,
};

/** The archive reasons the platform knows for entities such as DNA sequences. */
export const ARCHIVE_REASONS = [
  "Made in error",
  "Retired",
  "Expended",
  "Shipped",
  "Contaminated",
  "Expired",
  "Missing",
  "Other",
] as const;
