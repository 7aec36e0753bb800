import { responseFormat } from "../../../core/inputs.js";
import { json } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { fetchProtocol } from "../api/protocols.js";
import type { ProtocolsApi } from "../client.js";
import { protocolMarkdown } from "../format/protocol-markdown.js";
import { protocolRef } from "../inputs.js";
import { protocolSchema } from "../records/protocols.js";

export const getProtocol = defineTool({
  name: "protocols_get_protocol",
  title: "Get Protocol",
  description:
    "Read one protocol by id or uri: title, authors, DOI, dates, description, guidelines, materials and how many " +
    "steps it has (markdown), or the complete record including every step (json). Find ids with protocols_search " +
    "or protocols_list_my_protocols; read the steps with protocols_get_steps.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "protocols",
  input: {
    protocol: protocolRef("The protocol's id (e.g. 12314) or uri, from protocols_search."),
    response_format: responseFormat,
  },
  output: protocolSchema.out.shape,
  async handler({ protocol, response_format }, ctx, api: ProtocolsApi) {
    const record = await fetchProtocol(api, protocol, ctx);
    return reply(record, response_format === "json" ? json(record) : protocolMarkdown(record));
  },
});
