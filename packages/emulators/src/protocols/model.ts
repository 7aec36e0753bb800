// The repository's records as the emulator keeps them in memory; api/api-shapes.ts turns them into API shapes.

export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
  affiliation: string;
  password: string;
}

export interface ClientApplication {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  name: string;
  ownerId: number;
}

export interface Author {
  name: string;
  affiliation: string;
  /** Null for authors without an account, as on the real service. */
  username: string | null;
}

export interface Material {
  name: string;
  vendor: string;
  sku: string;
  /** How much a run uses, as written (e.g. "500 µL"). */
  amount?: string;
}

export interface Step {
  id: number;
  guid: string;
  section: string | null;
  text: string;
}

export interface ProtocolVersion {
  versionId: number;
  title: string;
  createdOn: number;
}

export interface ProtocolStats {
  views: number;
  bookmarks: number;
  comments: number;
  exports: number;
  runs: number;
}

export interface Protocol {
  id: number;
  /** 32 hex digits: the private link's identifier, and what a draft is created under. */
  guid: string;
  uri: string;
  title: string;
  creatorId: number;
  authors: Author[];
  /** Null while private: the real service mints a DOI when a protocol is published. */
  doi: string | null;
  description: string;
  guidelines: string;
  /** Rich-text fields a draft may set through the API (plain text, one line a block); "" when unset. */
  beforeStart: string;
  warning: string;
  materialsText: string;
  materials: Material[];
  steps: Step[];
  /** Oldest first; the last one is the current version. */
  versions: ProtocolVersion[];
  isPublic: boolean;
  /** Users (ids) a private protocol is shared with. */
  sharedWith: number[];
  /** Unix seconds. */
  createdOn: number;
  /** Unix seconds; null while private. */
  publishedOn: number | null;
  stats: ProtocolStats;
  /** Users (ids) who bookmarked it. */
  bookmarkedBy: number[];
  /** Bumped by every change through the API, so that a cached PDF of an older state is not served. */
  revision: number;
}

/** A workspace ("group"): its members and the protocols it holds (public ones are listed to anyone). */
export interface Workspace {
  id: number;
  uri: string;
  title: string;
  description: string;
  /** Member ids; the first one is the owner. */
  memberIds: number[];
  protocolIds: number[];
}
