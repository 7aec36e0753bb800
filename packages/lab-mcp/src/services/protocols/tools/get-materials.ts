import { z } from "zod";
import { apiPath } from "../../../core/http/api-path.js";
import { responseFormat } from "../../../core/inputs.js";
import { heading, json, markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { oneLine } from "../../../core/untrusted-text.js";
import type { ProtocolsApi } from "../client.js";
import { protocolRef } from "../inputs.js";
import { type Material, materialItemSchema, materialSchema } from "../records/protocols.js";
import { list } from "../records/values.js";

/** A table cell: one line, pipes escaped, "—" for nothing. */
const cell = (text: string | undefined) =>
  text ? oneLine(text).replace(/\s+/g, " ").replace(/\|/g, "\\|") : "—";

function materialsTable(materials: Material[]): string {
  return [
    "| Name | Vendor | Catalogue no. | Amount |",
    "| --- | --- | --- | --- |",
    ...materials.map((m) => `| ${cell(m.name)} | ${cell(m.vendor)} | ${cell(m.sku)} | ${cell(m.amount)} |`),
  ].join("\n");
}

export const getMaterials = defineTool({
  name: "protocols_get_materials",
  title: "Get Protocol Materials",
  description:
    "The materials (reagents) of one protocol as a table: name, vendor, catalogue number (sku) and amount where " +
    "the repository gives one. For the whole protocol use protocols_get_protocol; a PDF of the materials alone " +
    "comes from protocols_download_pdf with only='materials'.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "protocols",
  input: {
    protocol: protocolRef("The protocol's id (e.g. 12314) or uri, from protocols_search."),
    response_format: responseFormat,
  },
  output: { protocol: z.string(), total: z.number().int(), materials: z.array(materialItemSchema) },
  async handler({ protocol, response_format }, ctx, api: ProtocolsApi) {
    const [base = protocol] = protocol.split("/");
    const body = await api.send({ path: apiPath`api/v3/protocols/${base}/materials` }, ctx, {
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
  },
});
