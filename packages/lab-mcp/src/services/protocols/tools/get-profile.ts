import { responseFormat } from "../../../core/inputs.js";
import { fieldList, heading, json, markdown, nameWithId, utcTime } from "../../../core/render.js";
import { defineTool } from "../../../core/tool.js";
import type { ProtocolsApi } from "../client.js";

export const getProfile = defineTool({
  name: "protocols_get_profile",
  title: "Get Protocols Profile",
  description:
    "Show who the server is signed in to the protocol repository as (name, username, email, affiliation) and " +
    "how: a client token or an OAuth sign-in. Call this first when a protocols tool fails with an authentication " +
    "error; protocols_sign_in signs in.",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  toolset: "account",
  input: { response_format: responseFormat },
  async handler({ response_format }, ctx, api: ProtocolsApi) {
    const { profile, credential, warning } = await api.profile(ctx);
    const session = api.credentials.oauthSession(ctx);
    const renews = session ? utcTime(session.expiresAt) : undefined;
    if (response_format === "json") {
      return json({
        ...profile,
        sign_in: credential.kind,
        access_token_expires_at: session ? session.expiresAt.toISOString() : null,
        base_url: api.baseUrl,
        repository_warning: warning ? { code: warning.code, message: warning.message } : null,
      });
    }
    return markdown(
      heading(1, "Signed in to the protocol repository"),
      fieldList({
        User: userLine(profile.name, profile.username),
        Email: profile.email,
        Affiliation: profile.affiliation,
        "Sign-in": session
          ? `${credential.description}; the access token renews itself (current one until ${renews})`
          : credential.description,
        Repository: api.baseUrl,
        "Repository warning": warning ? `${warning.message} (code ${warning.code})` : undefined,
      }),
    );
  },
});

function userLine(name: string | undefined, username: string | undefined): string {
  if (name && username) return nameWithId(name, username);
  return name ?? username ?? "(no name given)";
}
