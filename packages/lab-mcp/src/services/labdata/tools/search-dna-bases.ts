import { z } from "zod";
import { InvalidInputError } from "../../../core/errors.js";
import { boundedString, pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { oneLine } from "../../../core/untrusted-text.js";
import { listRegistries } from "../api/registry.js";
import { searchBases } from "../api/search-bases.js";
import type { LabdataClient } from "../client.js";
import { nameAndId } from "../format/labels.js";
import { annotationEnd } from "../genbank/platform.js";
import { countedPage, countedPageShape, foundLine } from "../list-page.js";
import { type Annotation, integer, text } from "../records/platform.js";

const MIN_BASES = 8;

/** Where `query` lies in `bases` (1-based, inclusive), on both strands, across the origin of a circular one. */
export function matchPositions(bases: string, circular: boolean, query: string) {
  const hits: Array<{ start: number; end: number; strand: "forward" | "reverse" }> = [];
  const length = bases.length;
  const haystack = circular ? bases + bases.slice(0, query.length - 1) : bases;
  const reverse = reverseComplement(query);
  for (const [needle, strand] of [
    [query, "forward"],
    [reverse, "reverse"],
  ] as const) {
    if (strand === "reverse" && reverse === query) continue;
    for (
      let at = haystack.indexOf(needle);
      at >= 0 && at < length && hits.length < 50;
      at = haystack.indexOf(needle, at + 1)
    ) {
      hits.push({ start: at + 1, end: ((at + query.length - 1) % length) + 1, strand });
    }
  }
  return hits;
}

type Stretch = [first: number, last: number];

/** 1-based inclusive stretches of a place from `start` to `end`: two when it crosses the origin. */
const stretches = (start: number, end: number, length: number): Stretch[] =>
  start <= end
    ? [[start, end]]
    : [
        [start, length],
        [1, end],
      ];

/**
 * The features (annotations, by name or else type) a match overlaps. An annotation's start is 0-based
 * and its end exclusive, 0 at the end of the sequence (the platform's DnaAnnotation).
 */
export function overlappedFeatures(
  annotations: Annotation[],
  length: number,
  match: { start: number; end: number },
): string[] {
  const matched = stretches(match.start, match.end, length);
  const names = annotations.flatMap((annotation) => {
    if (typeof annotation.start !== "number" || typeof annotation.end !== "number") return [];
    const feature = stretches(annotation.start + 1, annotationEnd(annotation.end, length), length);
    const overlaps = feature.some(([a, b]) => matched.some(([c, d]) => a <= d && b >= c));
    const name = annotation.name?.trim() || annotation.type?.trim();
    return overlaps && name ? [name] : [];
  });
  return [...new Set(names)];
}

function reverseComplement(bases: string): string {
  const pairs: Record<string, string> = { A: "T", T: "A", C: "G", G: "C" };
  return [...bases]
    .reverse()
    .map((b) => pairs[b] ?? b)
    .join("");
}

const matchSchema = z.looseObject({
  start: z.number().int(),
  end: z.number().int(),
  strand: z.enum(["forward", "reverse"]),
  features: z.array(z.string()),
});
/** A hit as its line shows it: name (id), registry id, length, where the bases match. */
const hitSchema = z.looseObject({
  id: text,
  name: text,
  entityRegistryId: text,
  length: integer,
  matches: z.array(matchSchema),
});

export const searchDnaBases = defineTool({
  name: "labdata_search_dna_bases",
  title: "Search DNA Sequences by Bases",
  description:
    "DNA sequences containing a stretch of bases (insert, primer, hairpin) on either strand, with match positions: 'is there a registered plasmid with this insert?'.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "sequences",
  input: {
    bases: boundedString({
      description: "8 to 10,000 bases (A, C, G, T or U); whitespace and digits ignored.",
      max: 20_000,
      multiline: true,
    }),
    registered_only: z.boolean().default(false).describe("Only registered sequences."),
    ...pagingInputs,
  },
  output: countedPageShape("dna_sequences", hitSchema),
  async handler({ bases, registered_only, limit, offset, response_format }, ctx, client: LabdataClient) {
    const query = bases
      .replace(/[\s\d]/g, "")
      .toUpperCase()
      .replace(/U/g, "T");
    const bad = query.match(/[^ACGT]/);
    if (bad || query.length < MIN_BASES || query.length > 10_000) {
      throw new InvalidInputError(
        `Error: Invalid input for labdata_search_dna_bases: bases: ${
          bad
            ? `'${bad[0]}' is not A, C, G, T or U`
            : `give ${MIN_BASES} to 10,000 bases (got ${query.length})`
        }.`,
      );
    }
    const registryId = registered_only ? (await listRegistries(client, ctx))[0]?.id : undefined;
    const { items, total, exact } = await searchBases(
      client,
      { bases: query, ...(registryId ? { registryId } : {}) },
      offset,
      limit,
      ctx,
    );
    const hits = items.map(({ bases: seqBases, translations: _t, primers: _p, ...rest }) => {
      const upper = (seqBases ?? "").toUpperCase();
      const matches = matchPositions(upper, rest.isCircular === true, query).map((match) => ({
        ...match,
        features: overlappedFeatures(rest.annotations ?? [], upper.length, match),
      }));
      return { ...rest, matches };
    });
    const page = countedPage("dna_sequences", { items: hits, total, exact }, offset);
    return pageReply(page, response_format, () => {
      if (total === 0) return `No DNA sequences you may see contain these ${query.length} bases.`;
      if (hits.length === 0) return pastTheEnd("DNA sequences", page);
      return markdown(
        heading(1, `DNA sequences containing the ${query.length} bases`),
        foundLine("sequences", page),
        hits.map((hit) => {
          const where = hit.matches
            .map(
              (m) =>
                `${m.start}..${m.end} (${m.strand})${m.features.length ? ` in ${m.features.join(", ")}` : ""}`,
            )
            .join(", ");
          const registered = hit.entityRegistryId ? `registered as ${hit.entityRegistryId}, ` : "";
          return oneLine(
            `- **${nameAndId(hit.name, hit.id)}**: ${registered}${hit.length ?? "?"} bp, matches at ${where || "positions not given"}`,
          );
        }),
        moreLine(page),
        COVERED,
      );
    });
  },
});

/** What the search covers, said so that no reader takes a miss for an absence. */
const COVERED =
  "Searched: sequences that are not archived, both strands, and on a circular sequence across its origin " +
  "(a match there ends before it starts).";
