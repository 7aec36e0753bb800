// The admin operations on content: protocols (created in the wire form agents read, and the stored
// form tests check writes against) and workspaces.
import { z } from "zod";
import { type ProtocolWire, protocolWire } from "../api/api-shapes.js";
import type { ProtocolsContext } from "../context.js";
import { usernameOf } from "./accounts.js";
import { parseInput } from "./parse-input.js";

const text = (max: number) => z.string().trim().min(1).max(max);

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
export type NewProtocol = z.input<typeof newProtocolSchema>;

export interface ContentAdmin {
  createProtocol(input: NewProtocol): ProtocolWire;
  /** The stored protocol by id, URI or guid; undefined when there is none. */
  protocol(idOrUri: string): StoredProtocol | undefined;
  createWorkspace(input: NewWorkspace): WorkspaceInfo;
}

export function contentAdmin(ctx: ProtocolsContext): ContentAdmin {
  return {
    createProtocol: (input) => createProtocol(ctx, parseInput(newProtocolSchema, input)),
    protocol: (idOrUri) => storedProtocol(ctx, idOrUri),
    createWorkspace(input) {
      const workspace = ctx.store.addWorkspace(parseInput(newWorkspaceSchema, input));
      return {
        id: workspace.id,
        uri: workspace.uri,
        title: workspace.title,
        members: workspace.memberIds.map((id) => usernameOf(ctx, id)),
        protocolIds: [...workspace.protocolIds],
      };
    },
  };
}

function createProtocol(ctx: ProtocolsContext, data: z.output<typeof newProtocolSchema>): ProtocolWire {
  const { store } = ctx;
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
  const view = { dialect: ctx.dialect, version: "v4" as const, contentFormat: undefined, origin: ctx.origin };
  return protocolWire(protocol, store, view);
}

function storedProtocol(ctx: ProtocolsContext, idOrUri: string): StoredProtocol | undefined {
  const p = ctx.store.findProtocol(idOrUri);
  if (!p) return undefined;
  return {
    id: p.id,
    uri: p.uri,
    guid: p.guid,
    title: p.title,
    creator: usernameOf(ctx, p.creatorId),
    public: p.isPublic,
    description: p.description,
    guidelines: p.guidelines,
    beforeStart: p.beforeStart,
    warning: p.warning,
    materialsText: p.materialsText,
    steps: p.steps.map((step) => ({ guid: step.guid, section: step.section, text: step.text })),
  };
}
