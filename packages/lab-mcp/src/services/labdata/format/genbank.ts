// GenBank flat file of a platform sequence, with a feature per annotation (genbank/platform.ts says
// how an annotation becomes a feature; genbank/write.ts writes the file).
import { annotationFeature } from "../genbank/platform.js";
import { writeGenBank } from "../genbank/write.js";
import type { DnaSequence } from "../records/platform.js";
import { displayName } from "./labels.js";

const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

export function toGenBank(sequence: DnaSequence): string {
  const bases = sequence.bases ?? "";
  const name = displayName(sequence.name, sequence.id ?? "unnamed");
  return writeGenBank({
    // The whole name, however long: a LOCUS name has no room for spaces, so they become _.
    locusName: name.trim().replace(/\s+/g, "_"),
    definition: name.replace(/\s+/g, " ").trim(),
    accession: sequence.entityRegistryId || sequence.id || ".",
    isCircular: sequence.isCircular === true,
    date: genBankDate(sequence.modifiedAt ?? sequence.createdAt),
    bases,
    features: (sequence.annotations ?? []).flatMap((annotation) => {
      const feature = annotationFeature(annotation, bases.length);
      return feature ? [feature] : [];
    }),
  });
}

function genBankDate(value: string | null | undefined): string {
  const date = value ? new Date(value) : new Date(0);
  const safe = Number.isNaN(date.getTime()) ? new Date(0) : date;
  return `${String(safe.getUTCDate()).padStart(2, "0")}-${MONTHS[safe.getUTCMonth()]}-${safe.getUTCFullYear()}`;
}
