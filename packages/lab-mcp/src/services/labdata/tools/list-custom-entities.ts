import { defineTool } from "../../../core/tool.js";
import { listEntities } from "../api/entities.js";
import type { LabdataApi } from "../client.js";
import { entityFilters, entityListInputs, entityPageReply, entityPageShape } from "../entity-list.js";

export const listCustomEntities = defineTool({
  name: "labdata_list_custom_entities",
  title: "List Custom Entities",
  description:
    "List the custom entities you may see (strains, cell lines and other registry records that are not " +
    "sequences), newest change first, filtered by name, alias, registry id, folder or project. Returns name " +
    "(id), schema, registry id and folder; read one with labdata_get_entity. Page with offset while has_more is true.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "registry",
  input: entityListInputs,
  output: entityPageShape("custom_entities"),
  async handler(args, ctx, api: LabdataApi) {
    const result = await listEntities(
      api,
      "custom_entity",
      entityFilters(args),
      args.offset,
      args.limit,
      ctx,
    );
    return entityPageReply("custom_entities", "custom entities", result, args.offset, args.response_format);
  },
});
