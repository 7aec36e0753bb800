import { z } from "zod";
import { responseFormat } from "../../../core/inputs.js";
import { fieldList, heading, json, markdown, nameWithId, utcTime } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import { fetchProfile } from "../api/protocols.js";
import type { ProtocolsClient } from "../client.js";
import { sharedAccountLine } from "../reading/acting-as.js";
import { profileSchema } from "../records/protocols.js";

export const getProfile = defineTool({
  name: "protocols_get_profile",
  title: "Get Protocols Profile",
  description:
    "Who the server is signed in to the protocol repository as (name, username, email, affiliation) and how: " +
    "client token or OAuth. Call it first when a protocols tool fails with an authentication error.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "account",
  input: { response_format: responseFormat },
  output: {
    ...profileSchema.out.shape,
    sign_in: z.enum(["client_token", "oauth"]),
    shared_account: z.boolean().optional(),
    access_token_expires_at: z.string().nullable(),
    base_url: z.string(),
    repository_warning: z.looseObject({ message: z.string() }).nullable(),
  },
  async handler({ response_format }, ctx, client: ProtocolsClient) {
    const { profile, credential, warning } = await fetchProfile(client, ctx);
    const session = client.credentials.oauthSession(ctx);
    const renews = session ? utcTime(session.expiresAt) : undefined;
    const shared = client.credentials.isShared(credential, ctx);
    const structured = {
      ...profile,
      sign_in: credential.kind,
      ...(shared ? { shared_account: true } : {}),
      access_token_expires_at: session ? session.expiresAt.toISOString() : null,
      base_url: client.baseUrl,
      repository_warning: warning ? { code: warning.code, message: warning.message } : null,
    };
    if (response_format === "json") return reply(structured, json(structured));
    const text = markdown(
      heading(
        1,
        shared
          ? "This server's shared account at the protocol repository"
          : "Signed in to the protocol repository",
      ),
      shared && sharedAccountLine(profile, ctx),
      fieldList({
        User: userLine(profile.name, profile.username),
        Email: profile.email,
        Affiliation: profile.affiliation,
        "Sign-in": session
          ? `${credential.description}; the access token renews itself (current one until ${renews})`
          : credential.description,
        Repository: client.baseUrl,
        "Repository warning": warning ? `${warning.message} (code ${warning.code})` : undefined,
      }),
    );
    return reply(structured, text);
  },
});

function userLine(name: string | undefined, username: string | undefined): string {
  if (name && username) return nameWithId(name, username);
  return name ?? username ?? "(no name given)";
}
