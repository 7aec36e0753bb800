// The repository's in-memory records: users, client applications and protocols, with the rules that
// keep them consistent (unique usernames and URIs, known owners, DOIs only for public protocols).

import { createHash } from "node:crypto";
import { createRandom, type Random } from "../common/seeded-random.js";
import type {
  Author,
  ClientApplication,
  Material,
  Protocol,
  ProtocolStats,
  Step,
  User,
  Workspace,
} from "./model.js";

/** A refused change, with the HTTP status the admin API answers it with. */
export class StoreError extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

export interface NewUser {
  username: string;
  name?: string;
  email?: string;
  affiliation?: string;
  password: string;
}

export interface StepDraft {
  text: string;
  section?: string | null;
  /** Given by the API caller for steps it writes; made up otherwise. */
  guid?: string;
}

/** What a draft's owner may change through the API (fact sheet §4.1 field names, in the model's terms). */
export interface DraftFields {
  title?: string;
  description?: string;
  guidelines?: string;
  beforeStart?: string;
  warning?: string;
  materialsText?: string;
}

export interface NewWorkspace {
  title: string;
  description?: string;
  /** Usernames; the first is the owner. */
  members: string[];
  /** Protocols (ids) it holds. */
  protocolIds?: number[];
}

export interface ProtocolDraft {
  title: string;
  /** Username of the creator, who owns the protocol. */
  creator: string;
  isPublic: boolean;
  /** Defaults to the creator alone. */
  authors?: Author[];
  description?: string;
  guidelines?: string;
  materials?: Material[];
  steps: StepDraft[];
  /** Usernames a private protocol is shared with. */
  sharedWith?: string[];
  /** Unix seconds; defaults to now. */
  createdOn?: number;
  /** Unix seconds; defaults to createdOn for public protocols. */
  publishedOn?: number;
  /** How many versions the protocol has had; defaults to 1. */
  versionCount?: number;
  stats?: ProtocolStats;
}

const USERNAME = /^[a-z0-9][a-z0-9._-]{1,63}$/i;
const DOI_PREFIX = "dx.doi.org/10.17504/protocols.io.";
const FIRST_PROTOCOL_ID = 12_001;
const FIRST_STEP_ID = 900_001;
const DAY_SECONDS = 24 * 3600;

// "Western blot for p-ERK (Thr202)" -> "western-blot-for-p-erk-thr202", cut at a word boundary.
function slugOf(title: string): string {
  const slug = title
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length <= 60) return slug || "protocol";
  const cut = slug.slice(0, 60);
  return cut.slice(0, cut.lastIndexOf("-") > 20 ? cut.lastIndexOf("-") : 60);
}

export class ProtocolsStore {
  #users = new Map<number, User>();
  #usersByName = new Map<string, User>();
  #applications = new Map<string, ClientApplication>();
  #protocols: Protocol[] = [];
  #protocolsById = new Map<number, Protocol>();
  #protocolsByUri = new Map<string, Protocol>();
  #protocolsByGuid = new Map<string, Protocol>();
  #suffixes = new Set<string>();
  #nextStepId = FIRST_STEP_ID;
  #workspaces: Workspace[] = [];
  // URIs and guids only need to be unique and look real; seeded so demo data is reproducible.
  readonly #random: Random;

  constructor(
    seed: number,
    private readonly nowSeconds: () => number,
  ) {
    this.#random = createRandom(seed ^ 0x5eed);
  }

  addUser(input: NewUser): User {
    if (!USERNAME.test(input.username)) {
      throw new StoreError(400, "username must be 2 to 64 letters, digits, '.', '_' or '-'");
    }
    const key = input.username.toLowerCase();
    if (this.#usersByName.has(key)) throw new StoreError(409, `username '${input.username}' is taken`);
    const user: User = {
      id: this.#users.size + 1,
      username: input.username,
      name: input.name ?? input.username,
      email: input.email ?? `${input.username}@lab.example`,
      affiliation: input.affiliation ?? "",
      password: input.password,
    };
    this.#users.set(user.id, user);
    this.#usersByName.set(key, user);
    return user;
  }

  userById(id: number): User | undefined {
    return this.#users.get(id);
  }

  userByName(username: string): User | undefined {
    return this.#usersByName.get(username.toLowerCase());
  }

  /** The user, or a 404 StoreError naming what was looked for. */
  requireUser(username: string, role = "user"): User {
    const user = this.userByName(username);
    if (!user) throw new StoreError(404, `no ${role} '${username}'`);
    return user;
  }

  users(): User[] {
    return [...this.#users.values()];
  }

  addApplication(app: ClientApplication): ClientApplication {
    if (this.#applications.has(app.clientId)) throw new StoreError(409, "client_id is taken");
    this.#applications.set(app.clientId, app);
    return app;
  }

  application(clientId: string): ClientApplication | undefined {
    return this.#applications.get(clientId);
  }

  applications(): ClientApplication[] {
    return [...this.#applications.values()];
  }

  addProtocol(draft: ProtocolDraft): Protocol {
    const creator = this.requireUser(draft.creator, "creator");
    const sharedWith = (draft.sharedWith ?? []).map(
      (name) => this.requireUser(name, "user to share with").id,
    );
    if (draft.isPublic && sharedWith.length > 0) {
      throw new StoreError(400, "only private protocols are shared with users");
    }
    const id = FIRST_PROTOCOL_ID + this.#protocols.length;
    const suffix = this.#uniqueSuffix();
    const createdOn = draft.createdOn ?? this.nowSeconds();
    const versionCount = Math.max(1, draft.versionCount ?? 1);
    const protocol: Protocol = {
      id,
      // From the id and suffix rather than the seeded random, so that adding it left the demo data as it was.
      guid: createHash("md5").update(`protocol:${id}:${suffix}`).digest("hex"),
      uri: `${slugOf(draft.title)}-${suffix}`,
      title: draft.title,
      creatorId: creator.id,
      authors: draft.authors ?? [
        { name: creator.name, affiliation: creator.affiliation, username: creator.username },
      ],
      doi: draft.isPublic ? `${DOI_PREFIX}${suffix}` : null,
      description: draft.description ?? "",
      guidelines: draft.guidelines ?? "",
      beforeStart: "",
      warning: "",
      materialsText: "",
      materials: draft.materials ?? [],
      steps: draft.steps.map((s) => this.#step(s)),
      // Earlier versions a few weeks apart, ending with the current one at createdOn.
      versions: Array.from({ length: versionCount }, (_, i) => ({
        versionId: i + 1,
        title: draft.title,
        createdOn: createdOn - (versionCount - 1 - i) * 30 * DAY_SECONDS,
      })),
      isPublic: draft.isPublic,
      sharedWith,
      createdOn,
      publishedOn: draft.isPublic ? (draft.publishedOn ?? createdOn) : null,
      stats: draft.stats ?? { views: 0, bookmarks: 0, comments: 0, exports: 0, runs: 0 },
      bookmarkedBy: [],
      revision: 0,
    };
    this.#protocols.push(protocol);
    this.#protocolsById.set(id, protocol);
    this.#protocolsByUri.set(protocol.uri, protocol);
    this.#protocolsByGuid.set(protocol.guid, protocol);
    return protocol;
  }

  /**
   * A blank private draft of `creator`, as POST /api/v3/protocols/<guid> makes it: no title yet, one
   * version, no DOI. A guid already in use is refused (409).
   */
  createDraft(creator: User, guid: string): Protocol {
    const key = guid.toLowerCase();
    if (this.#protocolsByGuid.has(key)) throw new StoreError(409, "a protocol with this guid already exists");
    const protocol = this.addProtocol({
      title: "Untitled protocol",
      creator: creator.username,
      isPublic: false,
      steps: [],
    });
    this.#protocolsByGuid.delete(protocol.guid);
    protocol.guid = key;
    protocol.title = "";
    this.#protocolsByGuid.set(key, protocol);
    return protocol;
  }

  /** Sets a draft's fields; a new title gives it a new URI (the old one keeps resolving). */
  updateDraft(protocol: Protocol, fields: DraftFields): void {
    const { title, description, guidelines, beforeStart, warning, materialsText } = fields;
    if (title !== undefined && title !== protocol.title) {
      protocol.title = title;
      const suffix = protocol.uri.slice(protocol.uri.lastIndexOf("-") + 1);
      protocol.uri = `${slugOf(title)}-${suffix}`;
      this.#protocolsByUri.set(protocol.uri, protocol);
      for (const version of protocol.versions) version.title = title;
    }
    if (description !== undefined) protocol.description = description;
    if (guidelines !== undefined) protocol.guidelines = guidelines;
    if (beforeStart !== undefined) protocol.beforeStart = beforeStart;
    if (warning !== undefined) protocol.warning = warning;
    if (materialsText !== undefined) protocol.materialsText = materialsText;
    protocol.revision++;
  }

  /** Replaces the steps, in order; a step keeps its id when its guid is kept. */
  replaceSteps(protocol: Protocol, steps: StepDraft[]): void {
    const ids = new Map(protocol.steps.map((step) => [step.guid, step.id]));
    protocol.steps = steps.map((draft) => {
      const step = this.#step(draft);
      const id = ids.get(step.guid);
      if (id !== undefined) step.id = id;
      return step;
    });
    protocol.revision++;
  }

  /**
   * By numeric id ("12001"), URI, private guid (32 hex digits) or DOI name ("protocols.io.<suffix>", a
   * public protocol's), as GET /api/v4/protocols/{id or uri} takes them (fact sheet §4.1).
   */
  findProtocol(idOrUri: string): Protocol | undefined {
    if (/^\d{1,15}$/.test(idOrUri)) return this.#protocolsById.get(Number(idOrUri));
    if (/^[0-9a-f]{32}$/i.test(idOrUri)) return this.#protocolsByGuid.get(idOrUri.toLowerCase());
    const doiName = /^protocols\.io\.([a-z0-9]+)$/i.exec(idOrUri)?.[1];
    if (doiName !== undefined) {
      return this.#protocols.find((p) => p.doi?.endsWith(`.${doiName.toLowerCase()}`));
    }
    return this.#protocolsByUri.get(idOrUri);
  }

  addWorkspace(input: NewWorkspace): Workspace {
    const members = input.members.map((name) => this.requireUser(name, "workspace member").id);
    if (members.length === 0) throw new StoreError(400, "a workspace needs at least one member");
    for (const id of input.protocolIds ?? []) {
      if (!this.#protocolsById.has(id)) throw new StoreError(404, `no protocol ${id}`);
    }
    const id = this.#workspaces.length + 1;
    // Not from the seeded random, which would move the URIs of protocols added after it.
    const suffix = createHash("md5").update(`workspace:${id}`).digest("hex").slice(0, 6);
    const workspace: Workspace = {
      id,
      uri: `${slugOf(input.title)}-${suffix}`,
      title: input.title,
      description: input.description ?? "",
      memberIds: members,
      protocolIds: [...(input.protocolIds ?? [])],
    };
    this.#workspaces.push(workspace);
    return workspace;
  }

  workspaces(): readonly Workspace[] {
    return this.#workspaces;
  }

  findWorkspace(uri: string): Workspace | undefined {
    return this.#workspaces.find((w) => w.uri === uri || String(w.id) === uri);
  }

  protocols(): readonly Protocol[] {
    return this.#protocols;
  }

  #step(draft: StepDraft): Step {
    return {
      id: this.#nextStepId++,
      guid: draft.guid ?? this.#random.string("0123456789ABCDEF", 32),
      section: draft.section ?? null,
      text: draft.text,
    };
  }

  // The suffix ends the URI and the DOI alike, as on the real service, so it is unique on its own.
  #uniqueSuffix(): string {
    for (let attempt = 0; attempt < 100; attempt++) {
      const suffix = this.#random.string("abcdefghijklmnopqrstuvwxyz0123456789", 7);
      if (!this.#suffixes.has(suffix)) {
        this.#suffixes.add(suffix);
        return suffix;
      }
    }
    throw new Error("could not find a free protocol URI");
  }
}
