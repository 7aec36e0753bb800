import { z } from "zod";
import { defineTool } from "../../../core/tool.js";
import { listEntities } from "../api/entities.js";
import type { LabdataApi } from "../client.js";
import { entityFilters, entityListInputs, entityPageReply, entityPageShape } from "../entity-list.js";

export const listOligos = defineTool({
  name: "labdata_list_oligos",
  title: "List Oligos",
  description:
    "List the DNA or RNA oligos (primers, siRNAs) you may see, newest change first, filtered by name, alias, " +
    "registry id, folder or project. Returns name (id), length in nt, registry id, schema and folder; read one " +
    "(or its FASTA) with labdata_get_entity. Page with offset while has_more is true.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "sequences",
  input: {
    type: z
      .enum(["dna", "rna"])
      .default("dna")
      .describe("'dna' (default): DNA oligos such as primers; 'rna': RNA oligos."),
    ...entityListInputs,
  },
  output: entityPageShape("oligos"),
  async handler(args, ctx, api: LabdataApi) {
    const type = args.type === "rna" ? "rna_oligo" : "dna_oligo";
    const result = await listEntities(api, type, entityFilters(args), args.offset, args.limit, ctx);
    return entityPageReply(
      "oligos",
      `${args.type.toUpperCase()} oligos`,
      result,
      args.offset,
      args.response_format,
    );
  },
});
