import { pagingInputs } from "../../../core/inputs.js";
import { heading, json, markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { listEntitySchemas } from "../api/registry.js";
import type { LabdataApi } from "../client.js";
import { nameAndId } from "../format/labels.js";
import { countedPage, countedPageShape, howMany, thereAre } from "../list-page.js";
import { entitySchemaSchema } from "../records/registry.js";

export const listRegistrySchemas = defineTool({
  name: "labdata_list_registry_schemas",
  title: "List Registry Schemas",
  description:
    "List the registry's entity schemas (Plasmid, Strain, Primer...): each one's id, entity type, registry id " +
    "prefix (e.g. PL for PL09003) and fields. Use it to read what a registry id's prefix means, or which fields " +
    "an entity type carries. Page with offset while has_more is true.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "registry",
  input: { ...pagingInputs },
  output: countedPageShape("schemas", entitySchemaSchema),
  async handler({ limit, offset, response_format }, ctx, api: LabdataApi) {
    const { items, total, exact } = await listEntitySchemas(api, offset, limit, ctx);
    const page = countedPage("schemas", { items, total, exact }, offset);
    if (response_format === "json") return reply(page, json(page));
    if (total === 0) return reply(page, "The registry has no entity schemas you may see.");
    if (items.length === 0)
      return reply(
        page,
        `No schemas at offset ${offset}: ${thereAre({ total, exact })}. Use a smaller offset.`,
      );
    return reply(
      page,
      markdown(
        heading(1, "Registry schemas"),
        `Found ${howMany({ total, exact })} schemas (showing ${offset + 1}–${offset + items.length})`,
        items.map((schema) => {
          const fields = (schema.fieldDefinitions ?? []).map((f) => f.name).filter(Boolean);
          const parts = [
            schema.type?.replace(/_/g, " "),
            schema.prefix ? `prefix ${schema.prefix}` : undefined,
            fields.length ? `fields ${fields.join(", ")}` : undefined,
          ].filter(Boolean);
          return `- **${nameAndId(schema.name, schema.id)}**: ${parts.join(", ")}`;
        }),
        page.has_more && `More: call again with offset=${page.next_offset}.`,
      ),
    );
  },
});
