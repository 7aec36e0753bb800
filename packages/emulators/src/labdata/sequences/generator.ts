// Realistic DNA sequences from a seed: plasmids assembled from a backbone and an insert, sgRNA
// cassettes, antibody chains and knockout cassettes, with their annotations, primers and
// translations. A named feature has the same bases wherever it appears, as in a real collection.

import type { Random } from "../../common/seeded-random.js";
import type { Annotation, FieldScalar, Primer, Translation } from "../state/model.js";
import { randomBases, randomOrf, reverseComplement, translate } from "./dna.js";
import {
  BACKBONES,
  type Backbone,
  E_COLI_GENES,
  FEATURE_COLORS,
  FEATURES,
  type FeatureSpec,
  GENE_TARGETS,
  INSERTS,
  type Insert,
  type Part,
} from "./parts-catalog.js";

export const MIN_LENGTH = 500;
export const MAX_LENGTH = 10_000;

export interface SequenceDraft {
  name: string;
  bases: string;
  isCircular: boolean;
  annotations: Annotation[];
  primers: Primer[];
  translations: Translation[];
  schemaName: string;
  fields: Record<string, FieldScalar>;
}

interface Placed {
  spec: FeatureSpec;
  strand: 1 | -1;
}

interface LibraryFeature {
  spec: FeatureSpec;
  bases: string;
  reverse: string;
  aminoAcids: string;
}

interface Assembly {
  bases: string;
  annotations: Annotation[];
  translations: Translation[];
}

export class SequenceGenerator {
  /** Each named feature's bases, reverse complement and protein, worked out once. */
  readonly #library = new Map<string, LibraryFeature>();
  /** How often each base name was used, so repeats get "-v2", "-v3"... as in a real collection. */
  readonly #versions = new Map<string, number>();

  constructor(private readonly random: Random) {
    for (const spec of FEATURES) {
      const bases =
        spec.type === "CDS" ? randomOrf(random, spec.length / 3 - 2) : randomBases(random, spec.length);
      const aminoAcids = spec.type === "CDS" ? translate(bases).replace(/\*$/, "") : "";
      this.#library.set(spec.name, { spec, bases, reverse: reverseComplement(bases), aminoAcids });
    }
  }

  /** e.g. "pET28a-His-Tev-Cas9-v2": a backbone with an insert in its slot. */
  plasmid(): SequenceDraft {
    const backbone = this.random.pick(BACKBONES);
    const insert = this.random.pick(INSERTS);
    const { placed, insertFrom, insertTo } = this.#expand(backbone.parts, insert);
    const assembly = this.#assemble(placed, [20, 160]);
    // One annotation per placed feature, in order.
    const insertStart = assembly.annotations[insertFrom]?.start ?? 0;
    const insertEnd = assembly.annotations[insertTo - 1]?.end ?? insertStart;
    const base = `${backbone.name}-${insert.label}`;
    const version = this.#next(base);
    const name = version === 1 ? base : `${base}-v${version}`;
    return {
      name,
      ...assembly,
      isCircular: true,
      primers: this.#sequencingPrimers(assembly.bases, insert.label, insertStart, insertEnd),
      schemaName: "Plasmid",
      fields: plasmidFields(backbone, insert, assembly.bases.length),
    };
  }

  /** A U6-driven guide RNA cassette for a human gene target, e.g. "sgRNA-EMX1-g3 cassette". */
  sgRnaCassette(): SequenceDraft {
    const target = this.random.pick(GENE_TARGETS);
    const guide = this.#next(`sgRNA-${target}`);
    const protospacer: FeatureSpec = { name: `${target} protospacer`, type: "misc_feature", length: 20 };
    const placed: Placed[] = [
      { spec: this.#spec("U6 promoter"), strand: 1 },
      { spec: protospacer, strand: 1 },
      { spec: this.#spec("sgRNA scaffold"), strand: 1 },
      { spec: this.#spec("lambda t0 terminator"), strand: 1 },
    ];
    return this.#linear(`sgRNA-${target}-g${guide} cassette`, placed, "sgRNA Cassette", { Target: target });
  }

  /** An antibody heavy or light chain expression fragment, e.g. "mAb-1042 HC". */
  antibodyChain(): SequenceDraft {
    const chain = this.random.pick(["HC", "LC"] as const);
    const clone = 1000 + this.#next(`mAb ${chain}`);
    const cds = chain === "HC" ? "IgG1 heavy chain" : "kappa light chain";
    const placed: Placed[] = [
      { spec: this.#spec("CMV promoter"), strand: 1 },
      { spec: this.#spec(cds), strand: 1 },
      { spec: this.#spec("bGH poly(A) signal"), strand: 1 },
    ];
    return this.#linear(`mAb-${clone} ${chain}`, placed, "Antibody Chain", {
      Isotype: chain === "HC" ? "IgG1" : "Kappa",
    });
  }

  /** A KanR knockout cassette with homology arms for an E. coli gene, e.g. "ΔlacZ::KanR cassette". */
  knockoutCassette(): SequenceDraft {
    const gene = this.random.pick(E_COLI_GENES);
    const arm = (side: string): FeatureSpec => ({
      name: `${gene} ${side} homology arm`,
      type: "misc_feature",
      length: this.random.int(250, 500),
    });
    const placed: Placed[] = [
      { spec: arm("5'"), strand: 1 },
      { spec: this.#spec("FRT"), strand: 1 },
      { spec: this.#spec("KanR"), strand: 1 },
      { spec: this.#spec("FRT"), strand: 1 },
      { spec: arm("3'"), strand: 1 },
    ];
    const base = `Δ${gene}::KanR cassette`;
    const copy = this.#next(base);
    const name = copy === 1 ? base : `${base} #${copy}`;
    return this.#linear(name, placed, "Gene Fragment", { Source: "PCR product", Organism: "E. coli" });
  }

  #linear(
    name: string,
    placed: Placed[],
    schemaName: string,
    fields: Record<string, FieldScalar>,
  ): SequenceDraft {
    const assembly = this.#assemble(placed, [5, 60]);
    return { name, ...assembly, isCircular: false, primers: [], schemaName, fields };
  }

  /** 1 the first time `key` is used, then 2, 3... */
  #next(key: string): number {
    const n = (this.#versions.get(key) ?? 0) + 1;
    this.#versions.set(key, n);
    return n;
  }

  #spec(name: string): FeatureSpec {
    const entry = this.#library.get(name);
    if (!entry) throw new Error(`unknown feature ${name}`);
    return entry.spec;
  }

  /** The backbone's features with the insert's in its slot, and where the insert's run of features is. */
  #expand(
    parts: readonly Part[],
    insert: Insert,
  ): { placed: Placed[]; insertFrom: number; insertTo: number } {
    const placed: Placed[] = [];
    let insertFrom = 0;
    let insertTo = 0;
    for (const part of parts) {
      if (part === "INSERT") insertFrom = placed.length;
      for (const item of part === "INSERT" ? insert.parts : [part]) {
        if (item !== "INSERT") placed.push({ spec: this.#spec(item[0]), strand: item[1] });
      }
      if (part === "INSERT") insertTo = placed.length;
    }
    return { placed, insertFrom, insertTo };
  }

  // Features in order with random spacers, padded to at least MIN_LENGTH and cut short of MAX_LENGTH.
  #assemble(placed: Placed[], spacer: [number, number]): Assembly {
    const featureTotal = placed.reduce((sum, p) => sum + p.spec.length, 0);
    const spacers = placed.map(() => this.random.int(spacer[0], spacer[1]));
    const room = MAX_LENGTH - featureTotal;
    const spacerTotal = spacers.reduce((sum, n) => sum + n, 0);
    const scale = spacerTotal > room ? Math.max(0, room) / spacerTotal : 1;
    const parts: string[] = [];
    const annotations: Annotation[] = [];
    const translations: Translation[] = [];
    let at = 0;
    for (const [i, { spec, strand }] of placed.entries()) {
      const gap = Math.floor((spacers[i] ?? 0) * scale);
      parts.push(randomBases(this.random, gap));
      at += gap;
      const known = this.#library.get(spec.name);
      const forward = known?.bases ?? randomBases(this.random, spec.length);
      parts.push(strand === 1 ? forward : (known?.reverse ?? reverseComplement(forward)));
      const [start, end] = [at, at + spec.length];
      annotations.push({
        start,
        end,
        strand,
        type: spec.type,
        name: spec.name,
        color: FEATURE_COLORS[spec.type],
      });
      if (spec.type === "CDS") {
        const aminoAcids = known?.aminoAcids ?? translate(forward).replace(/\*$/, "");
        translations.push({ start, end, strand, aminoAcids, regions: [{ start, end }] });
      }
      at = end;
    }
    const tail = Math.max(MIN_LENGTH - at, Math.min(this.random.int(10, 120), MAX_LENGTH - at));
    parts.push(randomBases(this.random, tail));
    return { bases: parts.join(""), annotations, translations };
  }

  // A forward primer upstream of the insert and a reverse one downstream, as used to verify a clone.
  #sequencingPrimers(bases: string, label: string, insertStart: number, insertEnd: number): Primer[] {
    const primers: Primer[] = [];
    const fStart = Math.max(0, insertStart - this.random.int(40, 90));
    const rEnd = Math.min(bases.length, insertEnd + this.random.int(40, 90));
    const color = FEATURE_COLORS.primer_bind;
    if (fStart + 20 <= bases.length) {
      const fBases = bases.slice(fStart, fStart + 20);
      primers.push({
        name: `${label}-seq-F`,
        bases: fBases,
        start: fStart,
        end: fStart + 20,
        strand: 1,
        bindPosition: fStart,
        overhangLength: 0,
        color,
        oligoId: null,
      });
    }
    if (rEnd - 20 >= 0) {
      const rBases = reverseComplement(bases.slice(rEnd - 20, rEnd));
      primers.push({
        name: `${label}-seq-R`,
        bases: rBases,
        start: rEnd - 20,
        end: rEnd,
        strand: -1,
        bindPosition: rEnd - 1,
        overhangLength: 0,
        color,
        oligoId: null,
      });
    }
    return primers;
  }
}

function plasmidFields(backbone: Backbone, insert: Insert, length: number): Record<string, FieldScalar> {
  return {
    Backbone: backbone.name,
    Insert: insert.label,
    Resistance: backbone.resistance,
    "Copy number": backbone.copyNumber,
    "Size (bp)": length,
  };
}
