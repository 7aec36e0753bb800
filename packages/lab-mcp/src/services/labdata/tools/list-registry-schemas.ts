import { pagingInputs } from "../../../core/inputs.js";
import { moreLine, pageReply, pastTheEnd } from "../../../core/page-reply.js";
import { heading, markdown } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import { oneLine } from "../../../core/untrusted-text.js";
import { listEntitySchemas } from "../api/registry.js";
import type { LabdataClient } from "../client.js";
import { nameAndId } from "../format/labels.js";
import { countedPage, countedPageShape, foundLine } from "../list-page.js";
import { registrySchemaBrief } from "../records/brief.js";

export const listRegistrySchemas = defineTool({
  name: "labdata_list_registry_schemas",
  title: "List Registry Schemas",
  description:
    "List the registry's entity schemas (Plasmid, Strain, Primer...): id, entity type, registry id " +
    "prefix (PL for PL09003), fields.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "writes",
  input: { ...pagingInputs },
  output: countedPageShape("schemas", registrySchemaBrief),
  async handler({ limit, offset, response_format }, ctx, client: LabdataClient) {
    const { items, total, exact } = await listEntitySchemas(client, offset, limit, ctx);
    const page = countedPage("schemas", { items, total, exact }, offset);
    return pageReply(page, response_format, () => {
      if (total === 0) return "The registry has no entity schemas you may see.";
      if (items.length === 0) return pastTheEnd("schemas", page);
      return markdown(
        heading(1, "Registry schemas"),
        foundLine("schemas", page),
        items.map((schema) => {
          const fields = (schema.fieldDefinitions ?? []).map((f) => f.name).filter(Boolean);
          const parts = [
            schema.type?.replace(/_/g, " "),
            schema.prefix ? `prefix ${schema.prefix}` : undefined,
            fields.length ? `fields ${fields.join(", ")}` : undefined,
          ].filter(Boolean);
          return `- **${nameAndId(schema.name, schema.id)}**: ${oneLine(parts.join(", "))}`;
        }),
        moreLine(page),
      );
    });
  },
});
