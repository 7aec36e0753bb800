import { identifier } from "../../core/inputs.js";
import { json } from "../../core/render.js";
import { defineResource } from "../../core/resource.js";
import { linkNames } from "./api/link-names.js";
import { getEntry } from "./api/notebook.js";
import type { LabdataApi } from "./client.js";
import { entryMarkdown } from "./format/entry-markdown.js";
import { toFasta } from "./format/fasta.js";

export const sequenceFastaResource = defineResource({
  name: "dna_sequence_fasta",
  uriTemplate: "labdata://dna-sequences/{id}",
  title: "DNA sequence (FASTA)",
  description: "One DNA sequence of the lab data platform as FASTA.",
  mimeType: "text/x-fasta",
  params: { id: identifier("Id of the DNA sequence.") },
  async read({ id }, ctx, api: LabdataApi) {
    const sequence = await api.getSequence(id, ctx);
    return toFasta({ ...sequence, id: sequence.id || id });
  },
});

export const currentUserResource = defineResource({
  name: "current_user",
  uriTemplate: "labdata://users/me",
  title: "Current lab data user",
  description: "Who the configured credentials sign in as, and how.",
  mimeType: "application/json",
  params: {},
  async read(_params, ctx, api: LabdataApi) {
    const { user, credential } = await api.me(ctx);
    return json({ ...user, authentication: credential.method });
  },
});

export const entryResource = defineResource({
  name: "notebook_entry",
  uriTemplate: "labdata://entries/{id}",
  title: "Notebook entry (markdown)",
  description:
    "One notebook entry of the lab data platform as markdown, whole: its days, notes, tables and links.",
  mimeType: "text/markdown",
  params: { id: identifier("Id of the notebook entry.") },
  async read({ id }, ctx, api: LabdataApi) {
    const entry = await getEntry(api, id, ctx);
    return entryMarkdown(entry, await linkNames(api, entry, ctx), id);
  },
});
