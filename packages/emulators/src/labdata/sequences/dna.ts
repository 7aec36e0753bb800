// DNA text helpers: the letters the platform accepts, reverse complements, translation with the
// standard genetic code, and random bases of ~50% GC content.
import type { Random } from "../../common/seeded-random.js";

/** A, C, G, T and the IUPAC ambiguity codes (N, R, Y, ...), either case. */
export const DNA_LETTERS = /^[ACGTRYKMSWBDHVN]+$/i;

const COMPLEMENT: Record<string, string> = {
  A: "T",
  T: "A",
  C: "G",
  G: "C",
  R: "Y",
  Y: "R",
  K: "M",
  M: "K",
  S: "S",
  W: "W",
  B: "V",
  V: "B",
  D: "H",
  H: "D",
  N: "N",
};

export function reverseComplement(bases: string): string {
  let out = "";
  for (let i = bases.length - 1; i >= 0; i--) out += COMPLEMENT[bases.charAt(i).toUpperCase()] ?? "N";
  return out;
}

const AMINO_ACIDS = "FFLLSSSSYY**CC*WLLLLPPPPHHQQRRRRIIIMTTTTNNKKSSRRVVVVAAAADDEEGGGG";
const CODE = { T: 0, C: 1, A: 2, G: 3 } as Record<string, number>;

/** Amino acids of `bases` read in frame from its start; "*" for a stop, "X" for an ambiguous codon. */
export function translate(bases: string): string {
  let protein = "";
  for (let i = 0; i + 3 <= bases.length; i += 3) {
    const [a, b, c] = [CODE[bases.charAt(i)], CODE[bases.charAt(i + 1)], CODE[bases.charAt(i + 2)]];
    protein += a === undefined || b === undefined || c === undefined ? "X" : AMINO_ACIDS[a * 16 + b * 4 + c];
  }
  return protein;
}

// Every 4-letter word, indexed by a byte: four random bases per byte keeps generation of a few
// million bases fast.
const WORDS = Array.from({ length: 256 }, (_, byte) =>
  [6, 4, 2, 0].map((shift) => "ACGT".charAt((byte >> shift) & 3)).join(""),
);

export function randomBases(random: Random, length: number): string {
  const parts: string[] = [];
  for (let made = 0; made < length; made += 16) {
    const n = random.uint32();
    parts.push(
      (WORDS[n & 255] ?? "") +
        (WORDS[(n >>> 8) & 255] ?? "") +
        (WORDS[(n >>> 16) & 255] ?? "") +
        (WORDS[n >>> 24] ?? ""),
    );
  }
  return parts.join("").slice(0, length);
}

const SENSE_CODONS = (() => {
  const codons: string[] = [];
  for (const a of "TCAG") for (const b of "TCAG") for (const c of "TCAG") codons.push(a + b + c);
  return codons.filter((codon) => !["TAA", "TAG", "TGA"].includes(codon));
})();

/** An open reading frame: ATG, `codons` random sense codons, then a stop codon. */
export function randomOrf(random: Random, codons: number): string {
  const parts = ["ATG"];
  for (let i = 0; i < codons; i++) parts.push(random.pick(SENSE_CODONS));
  parts.push(random.pick(["TAA", "TAG", "TGA"]));
  return parts.join("");
}
