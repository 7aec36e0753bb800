// protocols_get_protocol part='versions': the versions of a protocol, oldest first, with dates and DOIs.
import type { ToolContext } from "../../../core/context.js";
import type { ResponseFormat } from "../../../core/inputs.js";
import { bulletList, heading, json, markdown, nameWithId, utcTime } from "../../../core/render.js";
import { reply } from "../../../core/tool.js";
import { fetchProtocol } from "../api/protocols.js";
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";

export async function versionsPart(
  { protocol, response_format }: { protocol: string; response_format: ResponseFormat },
  ctx: ToolContext & ProtocolsCall,
  client: ProtocolsClient,
) {
  const record = await fetchProtocol(client, protocol.split("/")[0] ?? protocol, ctx, { withSteps: false });
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
}
