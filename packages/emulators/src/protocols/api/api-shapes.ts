// The JSON shapes of the repository API (snake_case, unix seconds), made from the in-memory records and
// worded in the emulator's current dialect (dialect.ts; the fact sheet's sections are cited there).
import { escapeHtml } from "../../common/html.js";
import { createRandom } from "../../common/seeded-random.js";
import type { ApiVersion, Dialect } from "../dialect.js";
import type { Material, Protocol, Step, User } from "../model.js";
import type { ProtocolsStore } from "../store.js";
import { type RichFormat, richText } from "./rich-text.js";

/** What decides the wording of one answer. */
export interface WireView {
  dialect: Dialect;
  version: ApiVersion;
  /** The request's content_format, when it named a known one. */
  contentFormat: RichFormat | undefined;
  origin: string;
  /** The signed-in caller, for the fields that depend on who asks (is_bookmarked). */
  viewerId?: number;
}

export function profileWire(user: User) {
  return { username: user.username, name: user.name, email: user.email, affiliation: user.affiliation };
}

function flag(value: boolean, view: WireView): boolean | number | string {
  const { flags } = view.dialect;
  if (flags === "boolean" || (flags === "by-version" && view.version === "v4")) return value;
  if (flags === "string") return value ? "1" : "0";
  return value ? 1 : 0;
}

function splitPeople(view: WireView): boolean {
  const { people } = view.dialect;
  return people === "split" || (people === "by-version" && view.version === "v4");
}

// "Maria de la Cruz" -> first "Maria", last "de la Cruz" (v4 people have no `name`, §4.1).
function personWire(name: string, username: string | null, affiliation: string, view: WireView) {
  if (!splitPeople(view)) return { name, username, affiliation };
  const space = name.indexOf(" ");
  const [first, last] = space < 0 ? [name, ""] : [name.slice(0, space), name.slice(space + 1)];
  return { first_name: first, last_name: last, username, affiliation };
}

function rich(text: string, view: WireView): string {
  const { richText: fallback } = view.dialect;
  return richText(text, fallback === "plain" ? "plain" : (view.contentFormat ?? defaultFormat(fallback)));
}

function defaultFormat(richDefault: Exclude<Dialect["richText"], "plain">): RichFormat {
  return richDefault === "draftjs" ? "json" : richDefault;
}

function titleFields(title: string, view: WireView) {
  if (view.dialect.markup === "plain") return { title };
  const escaped = escapeHtml(title);
  return { title: escaped, title_html: `<p>${escaped}</p>` };
}

function sectionWire(section: string | null, view: WireView): string | null {
  if (section === null || view.dialect.markup === "plain") return section;
  return `<p>${escapeHtml(section)}</p>`;
}

interface LinkedStep {
  step: Step;
  index: number;
}

// A seeded shuffle that never leaves two or more steps in their linked order (§5.3).
function arrayOrder(protocol: Protocol, view: WireView): LinkedStep[] {
  const linked = protocol.steps.map((step, index) => ({ step, index }));
  if (view.dialect.stepOrder === "linked" || linked.length < 2) return linked;
  const random = createRandom(protocol.id);
  const shuffled = [...linked];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [shuffled[i], shuffled[j]] = [shuffled[j] as LinkedStep, shuffled[i] as LinkedStep];
  }
  if (shuffled.every((s, i) => s.index === i)) shuffled.push(shuffled.shift() as LinkedStep);
  return shuffled;
}

export function stepsWire(protocol: Protocol, view: WireView) {
  return arrayOrder(protocol, view).map(({ step, index }) => {
    const previous = index > 0 ? protocol.steps[index - 1] : undefined;
    return {
      id: step.id,
      guid: step.guid,
      previous_id: previous?.id ?? view.dialect.firstPreviousId,
      previous_guid: previous?.guid ?? null,
      number: String(index + 1),
      section: sectionWire(step.section, view),
      step: rich(step.text, view),
    };
  });
}

function authorsWire(protocol: Protocol, view: WireView) {
  const authors = protocol.authors.map((a) => personWire(a.name, a.username, a.affiliation, view));
  // v4 payloads may carry blank authors (§4.1).
  if (!splitPeople(view)) return authors;
  return [...authors, { first_name: "", last_name: "", username: null, affiliation: null }];
}

/**
 * A protocol as it appears in list results: everything but its body (guidelines, materials, steps). An
 * earlier `versionId` (GET …/{id}/v{N}) answers as that version: its number, title and DOI.
 */
export function protocolSummaryWire(
  protocol: Protocol,
  store: ProtocolsStore,
  view: WireView,
  versionId = protocol.versions[protocol.versions.length - 1]?.versionId ?? 1,
) {
  const version = protocol.versions.find((v) => v.versionId === versionId);
  const creator = store.userById(protocol.creatorId);
  const versionedDoi = view.dialect.doi === "versioned" && view.version === "v4" && protocol.doi !== null;
  return {
    id: protocol.id,
    ...titleFields(version?.title ?? protocol.title, view),
    uri: protocol.uri,
    url: `${view.origin}/view/${protocol.uri}`,
    doi: versionedDoi ? `${protocol.doi}/v${versionId}` : protocol.doi,
    version_id: versionId,
    creator: personWire(creator?.name ?? "", creator?.username ?? null, creator?.affiliation ?? "", view),
    authors: authorsWire(protocol, view),
    description: rich(protocol.description, view),
    created_on: protocol.createdOn,
    published_on: protocol.publishedOn,
    public: flag(protocol.isPublic, view),
    is_bookmarked: flag(view.viewerId !== undefined && protocol.bookmarkedBy.includes(view.viewerId), view),
    stats: {
      number_of_views: protocol.stats.views,
      number_of_steps: protocol.steps.length,
      number_of_bookmarks: protocol.stats.bookmarks + protocol.bookmarkedBy.length,
      number_of_comments: protocol.stats.comments,
      number_of_exports: protocol.stats.exports,
      number_of_runs: protocol.stats.runs,
    },
  };
}

export interface ProtocolWire {
  id: number;
  uri: string;
  title: string;
  [field: string]: unknown;
}

/** The whole protocol, as GET /api/v4/protocols/{id or uri} returns it under `payload` (or `protocol`). */
export function protocolWire(
  protocol: Protocol,
  store: ProtocolsStore,
  view: WireView,
  versionId?: number,
): ProtocolWire {
  const steps = view.dialect.protocolSteps;
  return {
    ...protocolSummaryWire(protocol, store, view, versionId),
    guidelines: rich(protocol.guidelines, view),
    // Sent once written (the real service sends them always, "" when empty: §4.1).
    ...(protocol.beforeStart ? { before_start: rich(protocol.beforeStart, view) } : {}),
    ...(protocol.warning ? { warning: rich(protocol.warning, view) } : {}),
    ...(protocol.materialsText ? { materials_text: rich(protocol.materialsText, view) } : {}),
    materials: protocol.materials.map((m) => ({
      name: m.name,
      vendor: m.vendor,
      sku: m.sku,
      ...(m.amount ? { amount: m.amount } : {}),
    })),
    versions: protocol.versions.map((v) => ({
      version_id: v.versionId,
      title: v.title,
      created_on: v.createdOn,
    })),
    ...(steps === "absent" ? {} : { steps: steps === "null" ? null : stepsWire(protocol, view) }),
  };
}

/**
 * A material as the recorded reagent object (fact sheet §5.4): the vendor a user-like object, the
 * catalogue number `sku`. `amount` is not in the recordings: the emulator adds it when known.
 */
export function reagentWire(material: Material, id: number, view: WireView) {
  return {
    id,
    mol_weight: 0,
    name: material.name,
    linfor: null,
    url: "",
    sku: material.sku,
    cas_number: "",
    rrid: "",
    public: flag(true, view),
    vendor: {
      name: material.vendor,
      affiliation: null,
      username: null,
      link: null,
      image: { source: null, placeholder: null },
      badges: [],
      research_interests: null,
      id: 0,
    },
    can_edit: 0,
    stats: { total_protocols: 1 },
    ...(material.amount ? { amount: material.amount } : {}),
  };
}
