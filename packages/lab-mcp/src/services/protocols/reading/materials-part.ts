// protocols_get_protocol part='materials': the materials (reagents) of one protocol as a table.
import type { ToolContext } from "../../../core/context.js";
import { apiPath } from "../../../core/http/api-path.js";
import type { ResponseFormat } from "../../../core/inputs.js";
import { heading, json, markdown } from "../../../core/render.js";
import { reply } from "../../../core/tool.js";
import { tableCell } from "../../../core/untrusted-text.js";
import type { ProtocolsCall } from "../call.js";
import type { ProtocolsClient } from "../client.js";
import { type Material, materialSchema } from "../records/protocols.js";
import { list } from "../records/values.js";

/** A table cell: one line, pipes escaped, "—" for nothing. */
const cell = (text: string | undefined) => (text ? tableCell(text) : "—");

function materialsTable(materials: Material[]): string {
  return [
    "| Name | Vendor | Catalogue no. | Amount |",
    "| --- | --- | --- | --- |",
    ...materials.map((m) => `| ${cell(m.name)} | ${cell(m.vendor)} | ${cell(m.sku)} | ${cell(m.amount)} |`),
  ].join("\n");
}

export async function materialsPart(
  { protocol, response_format }: { protocol: string; response_format: ResponseFormat },
  ctx: ToolContext & ProtocolsCall,
  client: ProtocolsClient,
) {
  const [base = protocol] = protocol.split("/");
  const body = await client.send({ path: apiPath`api/v3/protocols/${base}/materials` }, ctx, {
    asksForOneProtocol: true,
  });
  const sent = Array.isArray(body.materials) ? body.materials : body.payload;
  const materials = list(materialSchema).parse(sent);
  const structured = { protocol, total: materials.length, materials };
  if (response_format === "json") return reply(structured, json(structured));
  if (materials.length === 0) {
    return reply(
      structured,
      `Protocol ${protocol} lists no materials (protocols_get_protocol shows any written as text).`,
    );
  }
  return reply(
    structured,
    markdown(
      heading(1, `Materials of protocol ${protocol}`),
      `${materials.length} materials`,
      materialsTable(materials),
    ),
  );
}
