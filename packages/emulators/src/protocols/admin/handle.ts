// The emulator's control operations: users, client applications, client tokens, protocols and settings.
// Tests call them in process; admin/routes.ts offers exactly the same over HTTP. Inputs are validated
// here, so both ways refuse the same bad values with a StoreError.
import { z } from "zod";
import { type ProtocolWire, profileWire, protocolWire } from "../api/api-shapes.js";
import type { ProtocolsContext } from "../context.js";
import {
  applyDialectPatch,
  type Dialect,
  type DialectPatch,
  type DialectPreset,
  dialectPatchSchema,
  presetName,
} from "../dialect.js";
import { newClientId, newClientSecret, newPassword } from "../new-secrets.js";
import { type ProtocolsSettings, type SettingsPatch, settingsPatchSchema } from "../settings.js";
import { StoreError } from "../store.js";

export interface UserProfile {
  username: string;
  name: string;
  email: string;
  affiliation: string;
}

export interface CreatedUser extends UserProfile {
  password: string;
}

export interface ApplicationInfo {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  name: string;
  /** Username of the owner, whose private content the application's CLIENT_ACCESS_TOKEN sees. */
  owner: string;
}

export interface IssuedClientToken {
  accessToken: string;
  tokenType: "Bearer";
  kind: "CLIENT_ACCESS_TOKEN";
  username: string;
}

const text = (max: number) => z.string().trim().min(1).max(max);

const newUserSchema = z.strictObject({
  username: z.string(),
  name: text(200).optional(),
  email: z.email().optional(),
  affiliation: z.string().max(300).optional(),
  password: z.string().min(1).max(200).optional(),
});

// Absolute http(s) without a fragment (RFC 6749 section 3.1.2); compared byte for byte at authorization.
const redirectUriSchema = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hash === "" && !value.includes("#");
  } catch {
    return false;
  }
}, "redirectUri must be an absolute http or https URL without a fragment");

const newApplicationSchema = z.strictObject({
  owner: z.string(),
  redirectUri: redirectUriSchema,
  name: text(200).optional(),
});

const count = z.number().int().min(0).max(100_000_000);

const newProtocolSchema = z.strictObject({
  title: text(300),
  creator: z.string(),
  public: z.boolean(),
  description: z.string().max(20_000).optional(),
  guidelines: z.string().max(20_000).optional(),
  materials: z
    .array(
      z.strictObject({
        name: text(300),
        vendor: z.string().max(200).default(""),
        sku: z.string().max(100).default(""),
        amount: z.string().max(100).optional(),
      }),
    )
    .max(200)
    .optional(),
  steps: z
    .array(
      z.union([
        text(50_000),
        z.strictObject({ step: text(50_000), section: z.string().max(200).nullable().optional() }),
      ]),
    )
    .max(1000)
    .default([]),
  authors: z
    .array(
      z.strictObject({
        name: text(200),
        affiliation: z.string().max(300).default(""),
        username: z.string().nullable().default(null),
      }),
    )
    .max(50)
    .optional(),
  sharedWith: z.array(z.string()).max(100).optional(),
  /** Usernames who bookmarked it. */
  bookmarkedBy: z.array(z.string()).max(100).optional(),
  /** Unix seconds; defaults to the emulator clock's now. */
  createdOn: z.number().int().min(0).optional(),
  versionCount: z.number().int().min(1).max(50).optional(),
  stats: z
    .strictObject({
      views: count.default(0),
      bookmarks: count.default(0),
      comments: count.default(0),
      exports: count.default(0),
      runs: count.default(0),
    })
    .optional(),
});

const newWorkspaceSchema = z.strictObject({
  title: text(200),
  description: z.string().max(5000).optional(),
  /** Usernames; the first one owns the workspace. */
  members: z.array(z.string()).min(1).max(500),
  protocolIds: z.array(z.number().int()).max(1000).optional(),
});

/** A protocol as the emulator keeps it, for tests to check what a write did. */
export interface StoredProtocol {
  id: number;
  uri: string;
  guid: string;
  title: string;
  creator: string;
  public: boolean;
  description: string;
  guidelines: string;
  beforeStart: string;
  warning: string;
  materialsText: string;
  steps: Array<{ guid: string; section: string | null; text: string }>;
}

export interface WorkspaceInfo {
  id: number;
  uri: string;
  title: string;
  members: string[];
  protocolIds: number[];
}

export type NewWorkspace = z.input<typeof newWorkspaceSchema>;
export type NewUser = z.input<typeof newUserSchema>;
export type NewApplication = z.input<typeof newApplicationSchema>;
export type NewProtocol = z.input<typeof newProtocolSchema>;

export interface ProtocolsAdmin {
  createUser(input: NewUser): CreatedUser;
  listUsers(): UserProfile[];
  createApplication(input: NewApplication): ApplicationInfo;
  /** Without client secrets, which are shown once, at creation. */
  listApplications(): Omit<ApplicationInfo, "clientSecret">[];
  /** A CLIENT_ACCESS_TOKEN for the application's owner; it does not expire. */
  issueClientToken(clientId: string): IssuedClientToken;
  createProtocol(input: NewProtocol): ProtocolWire;
  /** The stored protocol by id, URI or guid; undefined when there is none. */
  protocol(idOrUri: string): StoredProtocol | undefined;
  createWorkspace(input: NewWorkspace): WorkspaceInfo;
  settings(): ProtocolsSettings;
  updateSettings(patch: SettingsPatch): ProtocolsSettings;
  /** Empties every rate-limit window, as if a minute had passed for everyone. */
  resetRateLimits(): void;
  /** The current dialect: which preset it equals ("custom" when none) and every knob. */
  dialect(): DialectState;
  /** Starts from `preset` when given (else the current dialect) and sets the knobs given. */
  updateDialect(patch: DialectPatch): DialectState;
}

export interface DialectState {
  preset: DialectPreset | "custom";
  dialect: Dialect;
}

/** Parses with `schema`, turning the first problem into a 400 StoreError that names the field. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  throw new StoreError(400, `${where}${issue?.message ?? "invalid input"}`);
}

function copySettings(settings: ProtocolsSettings): ProtocolsSettings {
  return { ...settings, rateLimits: { ...settings.rateLimits } };
}

export function createAdminHandle(ctx: ProtocolsContext): ProtocolsAdmin {
  const { store } = ctx;
  const ownerName = (ownerId: number): string => store.userById(ownerId)?.username ?? "";

  return {
    createUser(input) {
      const data = parseInput(newUserSchema, input);
      const user = store.addUser({ ...data, password: data.password ?? newPassword() });
      return { ...profileWire(user), password: user.password };
    },

    listUsers() {
      return store.users().map(profileWire);
    },

    createApplication(input) {
      const data = parseInput(newApplicationSchema, input);
      const owner = store.requireUser(data.owner, "owner");
      const app = store.addApplication({
        clientId: newClientId(),
        clientSecret: newClientSecret(),
        redirectUri: data.redirectUri,
        name: data.name ?? `${owner.name}'s application`,
        ownerId: owner.id,
      });
      const { clientId, clientSecret, redirectUri, name } = app;
      return { clientId, clientSecret, redirectUri, name, owner: owner.username };
    },

    listApplications() {
      return store.applications().map((app) => ({
        clientId: app.clientId,
        redirectUri: app.redirectUri,
        name: app.name,
        owner: ownerName(app.ownerId),
      }));
    },

    issueClientToken(clientId) {
      const app = store.application(clientId);
      if (!app) throw new StoreError(404, "no application with this clientId");
      const accessToken = ctx.tokens.issueClientToken(app.clientId, app.ownerId);
      return {
        accessToken,
        tokenType: "Bearer",
        kind: "CLIENT_ACCESS_TOKEN",
        username: ownerName(app.ownerId),
      };
    },

    createProtocol(input) {
      const data = parseInput(newProtocolSchema, input);
      const protocol = store.addProtocol({
        title: data.title,
        creator: data.creator,
        isPublic: data.public,
        description: data.description,
        guidelines: data.guidelines,
        materials: data.materials,
        authors: data.authors,
        sharedWith: data.sharedWith,
        createdOn: data.createdOn ?? Math.floor(ctx.clock.now() / 1000),
        versionCount: data.versionCount,
        stats: data.stats,
        steps: data.steps.map((s) =>
          typeof s === "string" ? { text: s } : { text: s.step, section: s.section },
        ),
      });
      protocol.bookmarkedBy = (data.bookmarkedBy ?? []).map((name) => store.requireUser(name).id);
      const view = {
        dialect: ctx.dialect,
        version: "v4" as const,
        contentFormat: undefined,
        origin: ctx.origin,
      };
      return protocolWire(protocol, store, view);
    },

    protocol(idOrUri) {
      const p = store.findProtocol(idOrUri);
      if (!p) return undefined;
      return {
        id: p.id,
        uri: p.uri,
        guid: p.guid,
        title: p.title,
        creator: ownerName(p.creatorId),
        public: p.isPublic,
        description: p.description,
        guidelines: p.guidelines,
        beforeStart: p.beforeStart,
        warning: p.warning,
        materialsText: p.materialsText,
        steps: p.steps.map((step) => ({ guid: step.guid, section: step.section, text: step.text })),
      };
    },

    createWorkspace(input) {
      const data = parseInput(newWorkspaceSchema, input);
      const workspace = store.addWorkspace(data);
      return {
        id: workspace.id,
        uri: workspace.uri,
        title: workspace.title,
        members: workspace.memberIds.map(ownerName),
        protocolIds: [...workspace.protocolIds],
      };
    },

    settings() {
      return copySettings(ctx.settings);
    },

    updateSettings(patch) {
      const data = parseInput(settingsPatchSchema, patch);
      if (data.browserSessionUser) store.requireUser(data.browserSessionUser);
      const { rateLimits, ...rest } = data;
      for (const [name, value] of Object.entries(rest)) {
        if (value !== undefined) Object.assign(ctx.settings, { [name]: value });
      }
      if (rateLimits) {
        for (const [name, value] of Object.entries(rateLimits)) {
          if (value !== undefined) Object.assign(ctx.settings.rateLimits, { [name]: value });
        }
        ctx.limits.apply(ctx.settings.rateLimits);
      }
      return copySettings(ctx.settings);
    },

    resetRateLimits() {
      ctx.limits.reset();
    },

    dialect() {
      return { preset: presetName(ctx.dialect), dialect: { ...ctx.dialect } };
    },

    updateDialect(patch) {
      ctx.dialect = applyDialectPatch(ctx.dialect, parseInput(dialectPatchSchema, patch));
      return this.dialect();
    },
  };
}
