// Users, their API keys, apps and their client secrets. Credentials are returned once, at creation,
// and kept only as hashes.
import { z } from "zod";
import { CREDENTIAL_PREFIX, hashCredential, newClientId, newCredential } from "../auth/hashed-secrets.js";
import type { EmulatorState, TenantState } from "../state/emulator-state.js";
import { ID_PREFIX } from "../state/ids.js";
import type { App, User } from "../state/model.js";
import { conflict, invalid, missing, validated } from "./admin-error.js";
import { recordOf, tenantOf } from "./lookup.js";
import { type ApiKeyView, type AppView, apiKeyView, appView, type UserView, userView } from "./views.js";

const MAX_SECRETS_PER_APP = 20;

const createUserSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    email: z.email().max(254),
    handle: z
      .string()
      .regex(/^[a-z0-9][a-z0-9._-]{0,39}$/, "lowercase letters, digits, '.', '_' or '-' (1-40)")
      .optional(),
    status: z.enum(["active", "suspended"]).optional(),
  })
  .strict();

const updateUserSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    email: z.email().max(254).optional(),
    status: z.enum(["active", "suspended"]).optional(),
  })
  .strict();

const createApiKeySchema = z.object({ userId: z.string().min(1) }).strict();
const createAppSchema = z.object({ name: z.string().trim().min(1).max(100) }).strict();

export type CreateUserInput = z.infer<typeof createUserSchema>;
export type UpdateUserInput = z.infer<typeof updateUserSchema>;
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;
export type CreateAppInput = z.infer<typeof createAppSchema>;

export interface CreatedApiKey extends ApiKeyView {
  /** The key itself: shown this once, stored only as a hash. */
  key: string;
}

export interface CreatedApp {
  app: AppView;
  clientId: string;
  /** The first client secret: shown this once. */
  clientSecret: string;
  secretId: string;
}

export interface CreatedSecret {
  id: string;
  /** Shown this once. */
  secret: string;
  createdAt: string;
}

function slug(text: string): string {
  return (
    text
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 30) || "app"
  );
}

// "Mira Patel" -> "mpatel"; a number is added when the handle is taken.
function freeHandle(tenant: TenantState, wanted: string): string {
  const taken = new Set([...tenant.users.values()].map((u) => u.handle));
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; n < 10_000; n++) if (!taken.has(`${wanted}${n}`)) return `${wanted}${n}`;
  throw conflict(`handle '${wanted}' is taken`);
}

function defaultHandle(name: string): string {
  const words = slug(name).split("-").filter(Boolean);
  const last = words.at(-1) ?? "user";
  return words.length > 1 ? `${words[0]?.charAt(0) ?? ""}${last}` : last;
}

function assertEmailFree(tenant: TenantState, email: string, exceptUserId?: string): void {
  const lower = email.toLowerCase();
  for (const user of tenant.users.values()) {
    if (user.id !== exceptUserId && user.email.toLowerCase() === lower)
      throw conflict(`email '${email}' is taken`);
  }
}

export function createUser(state: EmulatorState, tenantName: string, input: CreateUserInput): UserView {
  const tenant = tenantOf(state, tenantName);
  const { name, email, handle, status } = validated(createUserSchema, input);
  assertEmailFree(tenant, email);
  if (handle && [...tenant.users.values()].some((u) => u.handle === handle)) {
    throw conflict(`handle '${handle}' is taken`);
  }
  const now = state.clock.now();
  const user: User = {
    id: state.ids.next(ID_PREFIX.user),
    handle: handle ?? freeHandle(tenant, defaultHandle(name)),
    name,
    email,
    kind: "person",
    appId: null,
    status: status ?? "active",
    createdAt: now,
    modifiedAt: now,
    apiKeyLastChangedAt: null,
  };
  tenant.users.set(user.id, user);
  return userView(user);
}

export function updateUser(
  state: EmulatorState,
  tenantName: string,
  userId: string,
  patch: UpdateUserInput,
): UserView {
  const tenant = tenantOf(state, tenantName);
  const user = recordOf(tenant.users, userId, "user");
  const changes = validated(updateUserSchema, patch);
  if (user.kind === "app") throw invalid("an app's service user follows its app: change the app instead");
  if (changes.email !== undefined) {
    assertEmailFree(tenant, changes.email, user.id);
    user.email = changes.email;
  }
  if (changes.name !== undefined) user.name = changes.name;
  if (changes.status !== undefined) user.status = changes.status;
  user.modifiedAt = state.clock.now();
  // Serialized sequences name their creator.
  tenant.sequenceJson.clear();
  return userView(user);
}

export function listUsers(state: EmulatorState, tenantName: string): UserView[] {
  return [...tenantOf(state, tenantName).users.values()].map(userView);
}

export function createApiKey(
  state: EmulatorState,
  tenantName: string,
  input: CreateApiKeyInput,
): CreatedApiKey {
  const tenant = tenantOf(state, tenantName);
  const { userId } = validated(createApiKeySchema, input);
  const user = recordOf(tenant.users, userId, "user");
  if (user.kind === "app") throw invalid("apps authenticate with client credentials, not API keys");
  const key = newCredential(CREDENTIAL_PREFIX.apiKey);
  const now = state.clock.now();
  const record = { id: state.ids.next(ID_PREFIX.apiKey), userId, hash: hashCredential(key), createdAt: now };
  tenant.addApiKey(record);
  user.apiKeyLastChangedAt = now;
  return { ...apiKeyView(record), key };
}

export function listApiKeys(state: EmulatorState, tenantName: string, userId?: string): ApiKeyView[] {
  const keys = [...tenantOf(state, tenantName).apiKeys.values()];
  return keys.filter((k) => userId === undefined || k.userId === userId).map(apiKeyView);
}

export function deleteApiKey(state: EmulatorState, tenantName: string, keyId: string): void {
  const tenant = tenantOf(state, tenantName);
  const key = recordOf(tenant.apiKeys, keyId, "API key");
  tenant.removeApiKey(key);
  const owner = tenant.users.get(key.userId);
  if (owner) owner.apiKeyLastChangedAt = state.clock.now();
}

export function createApp(state: EmulatorState, tenantName: string, input: CreateAppInput): CreatedApp {
  const tenant = tenantOf(state, tenantName);
  const { name } = validated(createAppSchema, input);
  if ([...tenant.apps.values()].some((a) => a.name === name)) throw conflict(`app '${name}' exists`);
  const now = state.clock.now();
  const appId = state.ids.next(ID_PREFIX.app);
  const appSlug = slug(name);
  const serviceUser: User = {
    id: state.ids.next(ID_PREFIX.user),
    handle: freeHandle(tenant, `app-${appSlug}`),
    name,
    email: `${appSlug}@apps.${tenant.name}.example`,
    kind: "app",
    appId,
    status: "active",
    createdAt: now,
    modifiedAt: now,
    apiKeyLastChangedAt: null,
  };
  const clientSecret = newCredential(CREDENTIAL_PREFIX.clientSecret);
  const secretId = state.ids.next(ID_PREFIX.secret);
  const app: App = {
    id: appId,
    name,
    clientId: newClientId(),
    status: "active",
    serviceUserId: serviceUser.id,
    secrets: [{ id: secretId, hash: hashCredential(clientSecret), createdAt: now }],
    createdAt: now,
    modifiedAt: now,
  };
  tenant.users.set(serviceUser.id, serviceUser);
  tenant.addApp(app);
  return { app: appView(app), clientId: app.clientId, clientSecret, secretId };
}

export function listApps(state: EmulatorState, tenantName: string): AppView[] {
  return [...tenantOf(state, tenantName).apps.values()].map(appView);
}

/** Archiving ends the app's access tokens and refuses new ones until it is unarchived. */
export function archiveApp(state: EmulatorState, tenantName: string, appId: string): AppView {
  const tenant = tenantOf(state, tenantName);
  const app = recordOf(tenant.apps, appId, "app");
  app.status = "archived";
  app.modifiedAt = state.clock.now();
  tenant.revokeAccessTokens(app.id);
  return appView(app);
}

export function unarchiveApp(state: EmulatorState, tenantName: string, appId: string): AppView {
  const app = recordOf(tenantOf(state, tenantName).apps, appId, "app");
  app.status = "active";
  app.modifiedAt = state.clock.now();
  return appView(app);
}

export function addAppSecret(state: EmulatorState, tenantName: string, appId: string): CreatedSecret {
  const app = recordOf(tenantOf(state, tenantName).apps, appId, "app");
  if (app.secrets.length >= MAX_SECRETS_PER_APP)
    throw conflict(`an app has at most ${MAX_SECRETS_PER_APP} secrets`);
  const secret = newCredential(CREDENTIAL_PREFIX.clientSecret);
  const now = state.clock.now();
  const id = state.ids.next(ID_PREFIX.secret);
  app.secrets.push({ id, hash: hashCredential(secret), createdAt: now });
  return { id, secret, createdAt: new Date(now).toISOString() };
}

export function deleteAppSecret(
  state: EmulatorState,
  tenantName: string,
  appId: string,
  secretId: string,
): void {
  const app = recordOf(tenantOf(state, tenantName).apps, appId, "app");
  const index = app.secrets.findIndex((s) => s.id === secretId);
  if (index < 0) throw missing(`no secret '${secretId}' on app '${appId}'`);
  app.secrets.splice(index, 1);
}
