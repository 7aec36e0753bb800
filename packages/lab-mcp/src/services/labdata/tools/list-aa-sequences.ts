import { defineTool } from "../../../core/tool.js";
import { listEntities } from "../api/entities.js";
import type { LabdataApi } from "../client.js";
import { entityFilters, entityListInputs, entityPageReply, entityPageShape } from "../entity-list.js";

export const listAaSequences = defineTool({
  name: "labdata_list_aa_sequences",
  title: "List AA Sequences",
  description:
    "List the AA (amino acid, protein) sequences you may see, newest change first, filtered by name, alias, " +
    "registry id, folder or project. Returns name (id), length in aa, registry id, schema and folder; read one " +
    "(or its FASTA) with labdata_get_entity. Page with offset while has_more is true.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "sequences",
  input: entityListInputs,
  output: entityPageShape("aa_sequences"),
  async handler(args, ctx, api: LabdataApi) {
    const result = await listEntities(api, "aa_sequence", entityFilters(args), args.offset, args.limit, ctx);
    return entityPageReply("aa_sequences", "AA sequences", result, args.offset, args.response_format);
  },
});
