// The platform's users, found the way a scientist names a colleague: by handle, by full name, or by a
// part of the name (GET /users with handles, name or nameIncludes; the document's own filters).
import { apiPath } from "../../../core/http/api-path.js";
import type { LabdataCall } from "../call.js";
import type { LabdataClient } from "../client.js";
import { type LabUser, listSchema, userSchema } from "../records/platform.js";

/** Candidates read for a name that is a part of several: enough to name them back to the agent. */
export const CANDIDATES = 10;

/**
 * The users `named` names, the most exact way first: its handle, then the whole name, then a part of
 * the name (any case). Empty when nobody you may see is named so.
 */
export async function usersNamed(client: LabdataClient, named: string, ctx: LabdataCall): Promise<LabUser[]> {
  for (const query of [{ handles: named }, { name: named }, { nameIncludes: named }]) {
    const { body } = await client.send(
      {
        path: apiPath`api/v2/users`,
        query: { ...query, pageSize: CANDIDATES },
        schema: listSchema("users", userSchema),
      },
      ctx,
    );
    const users = ((body.users as LabUser[] | undefined) ?? []).filter((user) => user.id);
    if (users.length > 0) return users;
  }
  return [];
}
