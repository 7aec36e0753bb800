import { z } from "zod";
import { responseFormat } from "../../../core/inputs.js";
import { heading, json, markdown } from "../../../core/render.js";
import { defineTool, reply } from "../../../core/tool.js";
import type { LabdataClient } from "../client.js";
import type { SignOut } from "../credential-source.js";

const REMOVED_TEXT: Record<SignOut["removed"][number], string> = {
  person_key: "your API key stored for you on this server (every replica)",
  exchanged_token: "the platform token exchanged for your sign-in (every replica)",
  session_key: "the API key this session entered",
  remembered_key: "the API key remembered on this computer",
  memory_key: "the API key entered in this server's memory",
  warehouse_login: "the warehouse login minted with it (every replica)",
};

export const signOut = defineTool({
  name: "labdata_sign_out",
  title: "Sign Out of the Lab Data Platform",
  description:
    "Forget your own lab data API key here (stored, this session's or this computer's); the next call asks again. Lab data and an operator's key stay.",
  // Not read-only: it deletes a stored credential (so MCP_READ_ONLY hides it, as that setting hides every
  // tool that changes anything). Not destructive: no lab data is touched and entering the key again
  // restores it. Idempotent: a second sign-out finds nothing to remove. Closed world: only this server.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  toolset: "users",
  // It forgets the caller's key; it never needs one (nor asks for one to forget).
  credential: "none",
  input: { response_format: responseFormat },
  // What was forgotten (empty: nothing of yours), and what the next call uses; the text words both.
  output: {
    removed: z.array(
      z.enum([
        "person_key",
        "exchanged_token",
        "session_key",
        "remembered_key",
        "memory_key",
        "warehouse_login",
      ]),
    ),
    next: z.enum(["ask", "configured", "token_exchange"]),
    base_url: z.string(),
  },
  async handler({ response_format }, ctx, client: LabdataClient) {
    // The warehouse login was minted with the caller's own key: it goes with it.
    const identity = await client.credentials.ownIdentity(ctx).catch(() => undefined);
    const outcome = await client.credentials.signOut(ctx);
    if (identity && (await client.warehouse.forget(identity))) outcome.removed.push("warehouse_login");
    const structured = { ...outcome, base_url: client.baseUrl };
    if (response_format === "json") return reply(structured, json(structured));
    const removed =
      outcome.removed.length > 0
        ? `Removed ${outcome.removed.map((kind) => REMOVED_TEXT[kind]).join(" and ")} for ${client.baseUrl}.`
        : `Nothing to remove: no API key of yours is kept for ${client.baseUrl}.`;
    const next = {
      ask: "The next labdata call asks for an API key again, on a one-time page your client opens.",
      configured: `Every call of this server acts as the operator's ${client.configuredCredential ?? "credential"}, which stays.`,
      token_exchange:
        "The next call exchanges your sign-in to this server at the identity provider for a new platform token; to end access, sign out of this server in your client.",
    }[outcome.next];
    return reply(structured, markdown(heading(1, "Sign-out from the lab data platform"), removed, next));
  },
});
