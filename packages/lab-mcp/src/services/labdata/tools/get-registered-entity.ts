import { z } from "zod";
import { identifier, responseFormat } from "../../../core/inputs.js";
import { heading, json, markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { registeredEntities } from "../api/registry.js";
import type { LabdataApi } from "../client.js";
import { entityMarkdown } from "../format/entity-markdown.js";
import { entitySchema } from "../records/registry.js";

export const getRegisteredEntity = defineTool({
  name: "labdata_get_registered_entity",
  title: "Get Registered Entity",
  description:
    "Look up registered entities in the registry by their registry ids (e.g. PL09003, STR00001), of any type: " +
    "plasmids and other DNA sequences, AA sequences, oligos, strains. Returns each one's record. To find registry " +
    "ids by name, use labdata_search_entities; the registry's schemas and id prefixes: labdata_list_registry_schemas.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "registry",
  input: {
    registry_ids: z
      .array(identifier("One registry id, e.g. PL09003."))
      .min(1, "give at least one registry id")
      .max(10, "must have at most 10 items")
      .describe("Registry ids to look up (1 to 10), e.g. ['PL09003']."),
    registry_id: identifier(
      "The registry to look in (default: the first one, the usual single registry).",
    ).optional(),
    response_format: responseFormat,
  },
  output: { entities: z.array(entitySchema) },
  async handler({ registry_ids, registry_id, response_format }, ctx, api: LabdataApi) {
    const entities = await registeredEntities(api, registry_ids, registry_id, ctx);
    const structured = { entities };
    if (response_format === "json") return reply(structured, json(structured));
    if (entities.length === 0) return reply(structured, "The platform has no registry to look in.");
    return reply(
      structured,
      markdown(
        heading(1, `Registered entities: ${registry_ids.join(", ")}`),
        entities.map((entity) => entityMarkdown(entity).replace(/^# /, "## ")).join("\n\n"),
      ),
    );
  },
});
