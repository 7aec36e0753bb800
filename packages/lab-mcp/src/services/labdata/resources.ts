import { identifier } from "../../core/inputs.js";
import { json } from "../../core/render.js";
import { defineResource } from "../../core/resource.js";
import { findEntity } from "./api/entities.js";
import type { LabdataApi } from "./client.js";
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

export const entityResource = defineResource({
  name: "entity",
  uriTemplate: "labdata://entities/{id}",
  title: "Lab data entity",
  description:
    "One entity of the lab data platform by id (DNA or AA sequence, oligo, custom entity such as a strain), as JSON.",
  mimeType: "application/json",
  params: { id: identifier("Id of the entity.") },
  async read({ id }, ctx, api: LabdataApi) {
    return json(await findEntity(api, id, undefined, ctx));
  },
});
