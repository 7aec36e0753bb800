import { z } from "zod";
import { responseFormat } from "../../../core/inputs.js";
import { bulletList, heading, json, markdown, nameWithId, utcTime } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { fetchProtocol } from "../api/protocols.js";
import type { ProtocolsApi } from "../client.js";
import { protocolRef } from "../inputs.js";
import { listedVersionSchema } from "../records/protocols.js";

export const listVersions = defineTool({
  name: "protocols_list_versions",
  title: "List Protocol Versions",
  description:
    "List the versions of a protocol, oldest first, with their dates and DOIs (each version has its own). Read " +
    "one exactly by giving '<id>/v2' (or '/latest') as the protocol to protocols_get_protocol or " +
    "protocols_get_steps. Takes an id, uri or DOI in any written form.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "protocols",
  input: {
    protocol: protocolRef("The protocol's id (e.g. 12314), uri or DOI."),
    response_format: responseFormat,
  },
  output: {
    id: z.number().int(),
    title: z.string(),
    current_version: z.number().int().nullable(),
    versions: z.array(listedVersionSchema),
  },
  async handler({ protocol, response_format }, ctx, api: ProtocolsApi) {
    const record = await fetchProtocol(api, protocol.split("/")[0] ?? protocol, ctx, { withSteps: false });
    const doiBase = record.doi?.replace(/\/v\d+$/, "");
    const versions = record.versions.map((v) => ({
      ...v,
      ...(doiBase ? { doi: `${doiBase}/v${v.version_id}` } : {}),
      protocol: `${record.id}/v${v.version_id}`,
    }));
    const structured = {
      id: record.id,
      title: record.title,
      current_version: record.version_id ?? null,
      versions,
    };
    if (response_format === "json") return reply(structured, json(structured));
    const lines = versions.map((v) =>
      [
        `Version ${v.version_id}`,
        v.version_id === record.version_id ? "(current)" : undefined,
        v.created_on ? `of ${utcTime(v.created_on * 1000)}` : undefined,
        v.doi ? `DOI ${v.doi}` : "no DOI (not published)",
        `read it as protocol '${v.protocol}'`,
      ]
        .filter(Boolean)
        .join(" "),
    );
    return reply(
      structured,
      markdown(
        heading(1, `Versions of ${nameWithId(record.title, record.id)}`),
        versions.length === 0 ? "The repository lists no versions for this protocol." : bulletList(lines),
      ),
    );
  },
});
