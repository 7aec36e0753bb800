// The credential of one call, decided at the boundary (tool-call.ts, resources.ts): after the input is
// validated and before the handler runs, the service's source climbs its ladder for the caller (and
// may ask them: the ask's first round ends the call there as "input required"); the handler gets the
// credential on its context; a 401 the remote answered it with is reported back to the source here,
// the one place, whatever the handler did meanwhile.
import type { ToolContext } from "../context.js";
import type { CredentialNeed, CredentialSource } from "../credentials/credential-source.js";
import { RemoteStatusError } from "../errors.js";

/** Runs `work` with the call's credential on its context, as `need` says; reports a 401 to the source. */
export async function withCredential<T>(
  source: CredentialSource<unknown> | undefined,
  need: CredentialNeed,
  ctx: ToolContext,
  work: (ctx: ToolContext & { readonly credential?: unknown }) => Promise<T>,
): Promise<T> {
  if (!source || need === "none") return work(ctx);
  const credential = need === "required" ? await source.required(ctx) : await source.optional(ctx);
  try {
    return await work({ ...ctx, credential });
  } catch (error) {
    if (credential !== undefined && error instanceof RemoteStatusError && error.status === 401) {
      await source.refused(ctx, credential);
    }
    throw error;
  }
}
