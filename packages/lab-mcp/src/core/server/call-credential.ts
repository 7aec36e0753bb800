// The credential of one call, decided at the boundary (tool-call.ts, resources.ts): after the input is
// validated and before the handler runs, the service's source climbs its ladder for the caller. When
// it has to ask them, the ask's first round comes back from here as a value, the "input required"
// answer of the client's era, and no handler starts; otherwise the handler gets the credential on its
// context, and a 401 the remote answered it with is reported back to the source here, the one place,
// whatever the handler did meanwhile.
import type { InputRequiredResult } from "@modelcontextprotocol/server";
import type { ToolContext } from "../context.js";
import type { CredentialNeed, CredentialSource } from "../credentials/credential-source.js";
import { RemoteStatusError } from "../errors.js";
import { InputRequiredSignal } from "../pages/url-ask.js";

/** What a call with its credential came to: the work's value, or the ask for the credential. */
export type CredentialOutcome<T> = { done: T } | { inputRequired: InputRequiredResult };

/** Runs `work` with the call's credential on its context, as `need` says; reports a 401 to the source. */
export async function withCredential<T>(
  source: CredentialSource<unknown> | undefined,
  need: CredentialNeed,
  ctx: ToolContext,
  work: (ctx: ToolContext & { readonly credential?: unknown }) => Promise<T>,
): Promise<CredentialOutcome<T>> {
  if (!source || need === "none") return { done: await work(ctx) };
  let credential: unknown;
  try {
    credential = need === "required" ? await source.required(ctx) : await source.optional(ctx);
  } catch (error) {
    // The ask's first round (pages/url-ask.ts): the page is open, the client is to show it and retry.
    if (error instanceof InputRequiredSignal) return { inputRequired: error.result };
    throw error;
  }
  try {
    return { done: await work({ ...ctx, credential }) };
  } catch (error) {
    if (credential !== undefined && error instanceof RemoteStatusError && error.status === 401) {
      await source.refused(ctx, credential);
    }
    throw error;
  }
}
