import { identifier } from "../../core/inputs.js";
import { json } from "../../core/render.js";
import { defineResource } from "../../core/resource.js";
import { findEntity } from "./api/entities.js";
import { linkNames } from "./api/link-names.js";
import { getEntry } from "./api/notebook.js";
import type { LabdataClient } from "./client.js";
import { entryMarkdown } from "./format/entry-markdown.js";
import { toFasta } from "./format/fasta.js";
import { toGenBank } from "./format/genbank.js";

/** The file formats a DNA sequence is exported in, and the resource of each. */
export const SEQUENCE_FILES = {
  fasta: { mimeType: "text/x-fasta", extension: "fasta", render: toFasta },
  genbank: { mimeType: "chemical/x-genbank", extension: "gb", render: toGenBank },
} as const;

export function sequenceFileUri(id: string, format: keyof typeof SEQUENCE_FILES): string {
  return `labdata://dna-sequences/${encodeURIComponent(id)}/${format}`;
}

export const sequenceFastaFileResource = defineResource({
  name: "dna_sequence_fasta_file",
  uriTemplate: "labdata://dna-sequences/{id}/fasta",
  title: "DNA sequence file (FASTA)",
  description: "One DNA sequence with all its bases as a FASTA file.",
  mimeType: SEQUENCE_FILES.fasta.mimeType,
  toolset: "sequences",
  params: { id: identifier("Id of the DNA sequence.") },
  async read({ id }, ctx, client: LabdataClient) {
    const sequence = await client.getSequence(id, ctx);
    return toFasta({ ...sequence, id: sequence.id || id });
  },
});

export const sequenceGenBankFileResource = defineResource({
  name: "dna_sequence_genbank_file",
  uriTemplate: "labdata://dna-sequences/{id}/genbank",
  title: "DNA sequence file (GenBank)",
  description: "One DNA sequence with all its bases as a GenBank file, a feature per annotation.",
  mimeType: SEQUENCE_FILES.genbank.mimeType,
  toolset: "sequences",
  params: { id: identifier("Id of the DNA sequence.") },
  async read({ id }, ctx, client: LabdataClient) {
    const sequence = await client.getSequence(id, ctx);
    return toGenBank({ ...sequence, id: sequence.id || id });
  },
});

export const sequenceFastaResource = defineResource({
  name: "dna_sequence_fasta",
  uriTemplate: "labdata://dna-sequences/{id}",
  title: "DNA sequence (FASTA)",
  description: "One DNA sequence of the lab data platform as FASTA.",
  mimeType: "text/x-fasta",
  toolset: "sequences",
  params: { id: identifier("Id of the DNA sequence.") },
  async read({ id }, ctx, client: LabdataClient) {
    const sequence = await client.getSequence(id, ctx);
    return toFasta({ ...sequence, id: sequence.id || id });
  },
});

export const currentUserResource = defineResource({
  name: "current_user",
  uriTemplate: "labdata://users/me",
  title: "Current lab data user",
  description: "Who the configured credentials sign in as, and how.",
  mimeType: "application/json",
  toolset: "users",
  params: {},
  async read(_params, ctx, client: LabdataClient) {
    const user = await client.me(ctx);
    return json({ ...user, authentication: ctx.credential.method });
  },
});

export const entryResource = defineResource({
  name: "notebook_entry",
  uriTemplate: "labdata://entries/{id}",
  title: "Notebook entry (markdown)",
  description:
    "One notebook entry of the lab data platform as markdown, whole: its days, notes, tables and links.",
  mimeType: "text/markdown",
  toolset: "notebook",
  params: { id: identifier("Id of the notebook entry.") },
  async read({ id }, ctx, client: LabdataClient) {
    const entry = await getEntry(client, id, ctx);
    return entryMarkdown(entry, await linkNames(client, entry, ctx), id);
  },
});

export const entityResource = defineResource({
  name: "entity",
  uriTemplate: "labdata://entities/{id}",
  title: "Lab data entity",
  description:
    "One entity of the lab data platform by id (DNA or AA sequence, oligo, custom entity such as a strain), as JSON.",
  mimeType: "application/json",
  toolset: "search",
  params: { id: identifier("Id of the entity.") },
  async read({ id }, ctx, client: LabdataClient) {
    return json(await findEntity(client, id, undefined, ctx));
  },
});
