// The JSON shapes of the repository API (snake_case, unix seconds), made from the in-memory records.
import type { Protocol, User } from "./model.js";
import type { ProtocolsStore } from "./store.js";

export function profileWire(user: User) {
  return { username: user.username, name: user.name, email: user.email, affiliation: user.affiliation };
}

function creatorWire(protocol: Protocol, store: ProtocolsStore) {
  const creator = store.userById(protocol.creatorId);
  return {
    name: creator?.name ?? "",
    username: creator?.username ?? null,
    affiliation: creator?.affiliation ?? "",
  };
}

export function stepsWire(protocol: Protocol) {
  return protocol.steps.map((step, i) => {
    const previous = i > 0 ? protocol.steps[i - 1] : undefined;
    return {
      id: step.id,
      guid: step.guid,
      previous_id: previous?.id ?? null,
      previous_guid: previous?.guid ?? null,
      number: String(i + 1),
      section: step.section,
      step: step.text,
    };
  });
}

/** A protocol as it appears in list results: everything but its body (guidelines, materials, steps). */
export function protocolSummaryWire(protocol: Protocol, store: ProtocolsStore, origin: string) {
  const current = protocol.versions[protocol.versions.length - 1];
  return {
    id: protocol.id,
    title: protocol.title,
    uri: protocol.uri,
    url: `${origin}/view/${protocol.uri}`,
    doi: protocol.doi,
    version_id: current?.versionId ?? 1,
    creator: creatorWire(protocol, store),
    authors: protocol.authors.map((a) => ({
      name: a.name,
      affiliation: a.affiliation,
      username: a.username,
    })),
    description: protocol.description,
    created_on: protocol.createdOn,
    published_on: protocol.publishedOn,
    public: protocol.isPublic,
    stats: {
      number_of_views: protocol.stats.views,
      number_of_steps: protocol.steps.length,
      number_of_bookmarks: protocol.stats.bookmarks,
      number_of_comments: protocol.stats.comments,
      number_of_exports: protocol.stats.exports,
      number_of_runs: protocol.stats.runs,
    },
  };
}

/** The whole protocol, as GET /api/v4/protocols/{id or uri} returns it in `payload`. */
export function protocolWire(protocol: Protocol, store: ProtocolsStore, origin: string) {
  return {
    ...protocolSummaryWire(protocol, store, origin),
    guidelines: protocol.guidelines,
    materials: protocol.materials.map((m) => ({ name: m.name, vendor: m.vendor, sku: m.sku })),
    versions: protocol.versions.map((v) => ({
      version_id: v.versionId,
      title: v.title,
      created_on: v.createdOn,
    })),
    steps: stepsWire(protocol),
  };
}

export type ProtocolWire = ReturnType<typeof protocolWire>;
