// The demo tenants, the same for the same seed: "acme" (an organization, two teams, four projects,
// ten folders, ~2,300 DNA sequences, scientists with different memberships, a suspended user and an
// app granted a subset) and a small "globex" to show isolation. Credentials are fresh at every start.

import { createRandom, type Random } from "../../common/seeded-random.js";
import type { LabdataAdmin } from "../admin/handle.js";
import { draftOf, draftToSequence, type SEED_KINDS } from "../admin/sequences.js";
import { SequenceGenerator } from "../sequences/generator.js";
import type { EmulatorState } from "../state/emulator-state.js";
import { ID_PREFIX } from "../state/ids.js";
import type { ARCHIVE_REASONS } from "../state/model.js";
import { createDemoNotebook, type DemoNotebook } from "./notebook.js";
import { createRegistryDemo, type RegistryDemo } from "./registry.js";

/** The demo data is dated as of this day, whatever day it starts, so it is the same every time. */
const DEMO_EPOCH = Date.UTC(2025, 5, 30);
const DAY_MS = 86_400_000;

export interface DemoUser {
  id: string;
  name: string;
  email: string;
  handle: string;
  /** Created at start, random: not the same in two runs. */
  apiKey: string;
}

export interface DemoApp {
  id: string;
  name: string;
  clientId: string;
  clientSecret: string;
  serviceUserId: string;
}

export interface DemoData {
  tenant: string;
  baseUrl: string;
  /** The main scientist: write on "Plasmid Library" (2,000+ sequences), read on the Protein Engineering team. */
  user: DemoUser;
  /** Write on the organization: sees everything. */
  admin: DemoUser;
  /** Write on the Cloning team; read on the "Backbones" folder only of "Plasmid Library". */
  colleague: DemoUser;
  /** Read on the "Cas9 Engineering" project only. */
  reader: DemoUser;
  /** Suspended: its API key exists but no longer authenticates. */
  suspended: DemoUser;
  /** "Sequence Sync": grants on the organization, "Plasmid Library", and two of its folders. */
  app: DemoApp;
  organizationId: string;
  /** Team ids by name. */
  teams: Record<string, string>;
  /** Project ids by name. */
  projects: Record<string, string>;
  /** Folder ids by name. */
  folders: Record<string, string>;
  globex: { tenant: string; baseUrl: string; user: DemoUser; projectId: string; folderId: string };
  /** Notebook entries and templates, assay runs and results, workflow tasks of "acme". */
  notebook: DemoNotebook;
  /** Registry (schemas, registered plasmids, oligos, AA sequences, strains) and inventory of acme. */
  registry: RegistryDemo;
}

type Kind = (typeof SEED_KINDS)[number];

interface FolderPlan {
  name: string;
  kind: Kind;
  count: number;
}

interface ProjectPlan {
  name: string;
  owner: "org" | "Cloning" | "Protein Engineering";
  folders: FolderPlan[];
}

// Plasmid Library: 2,100 sequences, every 21st archived, so exactly 2,000 are live.
const ACME_PROJECTS: ProjectPlan[] = [
  {
    name: "Plasmid Library",
    owner: "org",
    folders: [
      { name: "Backbones", kind: "plasmid", count: 525 },
      { name: "Expression Vectors", kind: "plasmid", count: 525 },
      { name: "Reporter Constructs", kind: "plasmid", count: 525 },
      { name: "CRISPR Vectors", kind: "plasmid", count: 525 },
    ],
  },
  {
    name: "Cas9 Engineering",
    owner: "Protein Engineering",
    folders: [
      { name: "Cas9 Variants", kind: "plasmid", count: 40 },
      { name: "Guide RNAs", kind: "sgrna", count: 40 },
    ],
  },
  {
    name: "Antibody Discovery",
    owner: "Protein Engineering",
    folders: [
      { name: "Lead Candidates", kind: "antibody", count: 30 },
      { name: "Screening Hits", kind: "antibody", count: 30 },
    ],
  },
  {
    name: "Strain Construction",
    owner: "Cloning",
    folders: [
      { name: "Knockout Cassettes", kind: "knockout", count: 40 },
      { name: "Integration Plasmids", kind: "plasmid", count: 40 },
    ],
  },
];

const ARCHIVE_EVERY = 21;
const DEMO_REASONS: readonly (typeof ARCHIVE_REASONS)[number][] = ["Retired", "Made in error", "Other"];

function demoUser(admin: LabdataAdmin, tenant: string, name: string, email: string): DemoUser {
  const user = admin.createUser(tenant, { name, email });
  const { key } = admin.createApiKey(tenant, { userId: user.id });
  return { id: user.id, name: user.name, email: user.email, handle: user.handle, apiKey: key };
}

/** Fills `folderId` with generated sequences dated before DEMO_EPOCH; every 21st is archived. */
function fillFolder(
  state: EmulatorState,
  tenantName: string,
  folderId: string,
  plan: FolderPlan,
  context: { generator: SequenceGenerator; random: Random; creators: string[]; registryPrefix?: string },
): void {
  const tenant = state.tenants.get(tenantName);
  if (!tenant) throw new Error(`no tenant ${tenantName}`);
  const { generator, random, creators } = context;
  for (let i = 0; i < plan.count; i++) {
    const createdAt = DEMO_EPOCH - random.int(30, 720) * DAY_MS - random.int(0, DAY_MS);
    const modifiedAt = createdAt + random.int(0, DEMO_EPOCH - createdAt);
    const seq = draftToSequence(draftOf(generator, plan.kind), {
      id: state.ids.next(ID_PREFIX.dnaSequence),
      folderId,
      creatorId: random.pick(creators),
      createdAt,
      modifiedAt,
    });
    const n = tenant.sequences.size + 1;
    if (context.registryPrefix && i % 3 === 0) {
      seq.entityRegistryId = `${context.registryPrefix}${String(n).padStart(5, "0")}`;
      // The lab's own short name beside the registry id, as collections carry them.
      seq.aliases = [`AC-${String(n).padStart(4, "0")}`];
    }
    if (i % ARCHIVE_EVERY === ARCHIVE_EVERY - 1)
      seq.archiveReason = DEMO_REASONS[Math.floor(i / ARCHIVE_EVERY) % DEMO_REASONS.length] ?? "Other";
    tenant.sequences.set(seq.id, seq);
  }
}

function createAcme(
  admin: LabdataAdmin,
  state: EmulatorState,
  random: Random,
): Omit<DemoData, "globex" | "notebook" | "registry"> {
  const tenant = admin.createTenant({ name: "acme" });
  const t = tenant.name;
  const org = admin.createOrganization(t, { name: "Acme Biosciences" });
  const teams: Record<string, string> = {};
  for (const name of ["Cloning", "Protein Engineering"])
    teams[name] = admin.createTeam(t, { name, organizationId: org.id }).id;

  const user = demoUser(admin, t, "Mira Patel", "mira.patel@acme.example");
  const adminUser = demoUser(admin, t, "Dana Whitfield", "dana.whitfield@acme.example");
  const colleague = demoUser(admin, t, "Tom Becker", "tom.becker@acme.example");
  const reader = demoUser(admin, t, "Lin Zhou", "lin.zhou@acme.example");
  const suspended = demoUser(admin, t, "Sam Ortiz", "sam.ortiz@acme.example");

  const generator = new SequenceGenerator(random);
  const creators = [user.id, adminUser.id, colleague.id, reader.id];
  const projects: Record<string, string> = {};
  const folders: Record<string, string> = {};
  for (const plan of ACME_PROJECTS) {
    const ownerId = plan.owner === "org" ? org.id : (teams[plan.owner] ?? org.id);
    const project = admin.createProject(t, { name: plan.name, ownerId });
    projects[plan.name] = project.id;
    for (const folderPlan of plan.folders) {
      const folder = admin.createFolder(t, { name: folderPlan.name, projectId: project.id });
      folders[folderPlan.name] = folder.id;
      const registryPrefix = plan.name === "Plasmid Library" ? "PL" : undefined;
      fillFolder(state, t, folder.id, folderPlan, { generator, random, creators, registryPrefix });
    }
  }
  const project = (name: string): string => projects[name] ?? "";
  const folder = (name: string): string => folders[name] ?? "";

  admin.setMembership(t, { userId: adminUser.id, resourceId: org.id, role: "write" });
  admin.setMembership(t, { userId: user.id, resourceId: project("Plasmid Library"), role: "write" });
  admin.setMembership(t, { userId: user.id, resourceId: teams["Protein Engineering"] ?? "", role: "read" });
  admin.setMembership(t, { userId: colleague.id, resourceId: teams.Cloning ?? "", role: "write" });
  admin.setMembership(t, { userId: colleague.id, resourceId: folder("Backbones"), role: "read" });
  admin.setMembership(t, { userId: reader.id, resourceId: project("Cas9 Engineering"), role: "read" });
  admin.setMembership(t, { userId: suspended.id, resourceId: org.id, role: "write" });
  admin.updateUser(t, suspended.id, { status: "suspended" });

  const created = admin.createApp(t, { name: "Sequence Sync" });
  const appId = created.app.id;
  admin.setAppGrant(t, { appId, resourceId: org.id, role: "read" });
  admin.setAppGrant(t, { appId, resourceId: project("Plasmid Library"), role: "write" });
  admin.setAppGrant(t, { appId, resourceId: folder("Backbones"), role: "write" });
  admin.setAppGrant(t, { appId, resourceId: folder("Expression Vectors"), role: "read" });
  // A project grant without a grant on its owning team: not enough, as the platform requires each level.
  admin.setAppGrant(t, { appId, resourceId: project("Cas9 Engineering"), role: "read" });

  return {
    tenant: t,
    baseUrl: tenant.baseUrl,
    user,
    admin: adminUser,
    colleague,
    reader,
    suspended,
    app: {
      id: appId,
      name: created.app.name,
      clientId: created.clientId,
      clientSecret: created.clientSecret,
      serviceUserId: created.app.serviceUserId,
    },
    organizationId: org.id,
    teams,
    projects,
    folders,
  };
}

function createGlobex(admin: LabdataAdmin, state: EmulatorState, random: Random): DemoData["globex"] {
  const tenant = admin.createTenant({ name: "globex" });
  const t = tenant.name;
  const org = admin.createOrganization(t, { name: "Globex Corporation" });
  const user = demoUser(admin, t, "Nora Lindqvist", "nora.lindqvist@globex.example");
  const project = admin.createProject(t, { name: "Globex Research", ownerId: org.id });
  const folder = admin.createFolder(t, { name: "Shared Constructs", projectId: project.id });
  const generator = new SequenceGenerator(random);
  fillFolder(
    state,
    t,
    folder.id,
    { name: folder.name, kind: "plasmid", count: 20 },
    { generator, random, creators: [user.id] },
  );
  admin.setMembership(t, { userId: user.id, resourceId: org.id, role: "write" });
  return { tenant: t, baseUrl: tenant.baseUrl, user, projectId: project.id, folderId: folder.id };
}

export function createDemoData(admin: LabdataAdmin, state: EmulatorState, seed: number): DemoData {
  // Separate streams, so adding a tenant never changes the other's data.
  const acme = createAcme(admin, state, createRandom(seed));
  const globex = createGlobex(admin, state, createRandom(seed + 0x9e3779b9));
  const notebook = createDemoNotebook(
    state,
    {
      tenant: acme.tenant,
      users: { mira: acme.user.id, dana: acme.admin.id, tom: acme.colleague.id, lin: acme.reader.id },
      teams: acme.teams,
      projects: acme.projects,
      folders: acme.folders,
    },
    createRandom(seed ^ 0x17a17a),
  );
  const registry = createRegistryDemo({
    tenant: state.tenants.get(acme.tenant) as NonNullable<ReturnType<typeof state.tenants.get>>,
    ids: state.ids,
    random: createRandom(seed + 0x17),
    organizationId: acme.organizationId,
    projects: acme.projects,
    folders: acme.folders,
    creators: [acme.user.id, acme.admin.id, acme.colleague.id],
  });
  return { ...acme, globex, notebook, registry };
}
