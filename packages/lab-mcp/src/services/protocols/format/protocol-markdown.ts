// How protocols read to an agent: a line per protocol in lists, and one protocol's facts, people,
// description and materials; step bodies are part='steps' of protocols_get_protocol.
import { bulletList, fieldList, heading, markdown, nameWithId, utcTime } from "../../../core/render.js";
import { OTHERS_WROTE, oneLine, quoted } from "../../../core/untrusted-text.js";
import type { Person, Protocol, ProtocolSummary } from "../records/protocols.js";
import { cutAtSentence } from "./step-text.js";

const DESCRIPTION_CHARS = 1500;
const GUIDELINES_CHARS = 800;
const MATERIALS_SHOWN = 40;
const AUTHORS_IN_LINE = 3;

const fromUnix = (seconds: number | null | undefined) =>
  typeof seconds === "number" ? utcTime(seconds * 1000) : undefined;

export function stepCount(protocol: ProtocolSummary): number | undefined {
  const steps = (protocol as Protocol).steps;
  return Array.isArray(steps) ? steps.length : protocol.number_of_steps;
}

function authorNames(protocol: ProtocolSummary): string | undefined {
  const names = protocol.authors.map((a) => a.name);
  if (names.length === 0) return protocol.creator?.name;
  const shown = names.slice(0, AUTHORS_IN_LINE).join(", ");
  return names.length > AUTHORS_IN_LINE ? `${shown} et al.` : shown;
}

/** One line of a list: title (id), authors, date, step count, visibility, uri. */
export function protocolLine(protocol: ProtocolSummary): string {
  const steps = stepCount(protocol);
  const parts = [
    authorNames(protocol),
    protocol.published_on
      ? `published ${fromUnix(protocol.published_on)}`
      : protocol.created_on
        ? `created ${fromUnix(protocol.created_on)}`
        : undefined,
    steps === undefined ? undefined : `${steps} step${steps === 1 ? "" : "s"}`,
    protocol.public === false ? "private" : undefined,
    protocol.is_bookmarked ? "bookmarked by you" : undefined,
    `uri ${protocol.uri}`,
  ].filter(Boolean);
  return `- **${nameWithId(protocol.title, protocol.id)}**: ${oneLine(parts.join("; "))}`;
}

/** Remote prose quoted, cut (past `max` characters) only where a sentence ends, with how to read the rest. */
function quotedCut(text: string, max: number, howToGetTheRest: string): string {
  const { shown, cut } = cutAtSentence(text, max);
  return cut ? `${quoted(shown)}\n(Cut at a sentence end; ${howToGetTheRest}.)` : quoted(text);
}

function personLine(person: Person): string {
  const name = person.username ? nameWithId(person.name, person.username) : person.name;
  return oneLine(person.affiliation ? `${name}, ${person.affiliation}` : name);
}

/** One protocol: facts, authors, description, guidelines, materials, and where its steps are. */
export function protocolMarkdown(protocol: Protocol): string {
  const steps = stepCount(protocol);
  const { versions, materials, authors } = protocol;
  const longText = "call protocols_get_protocol with response_format 'json' for the whole text";
  const othersWrote =
    Boolean(protocol.description || protocol.guidelines || protocol.before_start || protocol.warning) ||
    (materials.length === 0 && Boolean(protocol.materials_text));
  return markdown(
    heading(1, nameWithId(protocol.title, protocol.id)),
    fieldList({
      URI: protocol.uri,
      DOI: protocol.doi,
      Visibility: protocol.public === undefined ? undefined : protocol.public ? "public" : "private",
      Published: fromUnix(protocol.published_on),
      Created: fromUnix(protocol.created_on),
      Version:
        protocol.version_id != null
          ? `${protocol.version_id}${versions.length > 1 ? ` (${versions.length} versions)` : ""}`
          : undefined,
      Creator: protocol.creator ? personLine(protocol.creator) : undefined,
      Steps: `${steps ?? "unknown"}: read them with part='steps'`,
      "Web page": protocol.url,
    }),
    othersWrote && OTHERS_WROTE,
    ...(authors.length > 0
      ? [heading(2, `Authors (${authors.length})`), bulletList(authors.map(personLine))]
      : []),
    ...(protocol.description
      ? [heading(2, "Description"), quotedCut(protocol.description, DESCRIPTION_CHARS, longText)]
      : []),
    ...(protocol.guidelines
      ? [heading(2, "Guidelines"), quotedCut(protocol.guidelines, GUIDELINES_CHARS, longText)]
      : []),
    ...(protocol.before_start
      ? [heading(2, "Before start"), quotedCut(protocol.before_start, GUIDELINES_CHARS, longText)]
      : []),
    ...(protocol.warning
      ? [heading(2, "Safety warnings"), quotedCut(protocol.warning, GUIDELINES_CHARS, longText)]
      : []),
    heading(
      2,
      materials.length > 0 || !protocol.materials_text ? `Materials (${materials.length})` : "Materials",
    ),
    materials.length === 0
      ? protocol.materials_text
        ? quotedCut(protocol.materials_text, DESCRIPTION_CHARS, longText)
        : "None listed."
      : [
          ...bulletList(
            materials.slice(0, MATERIALS_SHOWN).map((m) => {
              const source = [m.vendor, m.sku ? `cat. no. ${m.sku}` : undefined].filter(Boolean).join(", ");
              return source ? `${m.name}: ${source}` : m.name;
            }),
          ),
          ...(materials.length > MATERIALS_SHOWN
            ? [`… and ${materials.length - MATERIALS_SHOWN} more; ${longText}.`]
            : []),
        ],
  );
}
