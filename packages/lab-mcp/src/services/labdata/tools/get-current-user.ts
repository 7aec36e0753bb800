import { z } from "zod";
import { responseFormat } from "../../../core/inputs.js";
import { fieldList, heading, json, markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import type { LabdataClient } from "../client.js";
import { nameAndId } from "../format/labels.js";
import { userSchema } from "../records/platform.js";

export const getCurrentUser = defineTool({
  name: "labdata_get_current_user",
  title: "Get Current Lab Data User",
  description:
    "Who the lab data credentials sign in as (name, email, method). Call first when a tool fails with 'Invalid API authentication'.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "users",
  input: { response_format: responseFormat },
  output: {
    ...userSchema.shape,
    authentication: z
      .enum(["api_key", "client_credentials", "oidc"])
      .describe("The kind of credential in use."),
    base_url: z.string(),
  },
  async handler({ response_format }, ctx, client: LabdataClient) {
    const user = await client.me(ctx);
    const { credential } = ctx;
    const structured = { ...user, authentication: credential.method, base_url: client.baseUrl };
    if (response_format === "json") return reply(structured, json(structured));
    const text = markdown(
      heading(1, "Signed in to the lab data platform"),
      fieldList({
        User: user.name || user.handle || user.id ? nameAndId(user.name || user.handle, user.id) : undefined,
        Email: user.email,
        Handle: user.handle,
        Authentication: credential.description,
        Platform: client.baseUrl,
      }),
    );
    return reply(structured, text);
  },
});
