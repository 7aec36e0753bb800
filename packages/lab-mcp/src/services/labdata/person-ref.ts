// A person as a scientist names a colleague, in every input that takes one (creator, assignee,
// requested_by, author): 'me', a user id, a handle or a name, which the platform's users list finds.
import { InvalidInputError, InvalidResponseError } from "../../core/errors.js";
import { boundedString } from "../../core/inputs.js";
import { CANDIDATES, usersNamed } from "./api/users.js";
import type { LabdataCall } from "./call.js";
import type { LabdataClient } from "./client.js";
import { nameAndId } from "./format/labels.js";

/** A person as a scientist names a colleague: 'me', a user id, a handle or a name. */
export function personInput(description: string) {
  return boundedString({ description, max: 100 });
}

export const creatorInput = personInput("'me', a user id, handle or name.");

/** A platform user id as the document shows them: the platform names users as entities. */
const USER_ID = /^ent_[A-Za-z0-9]+$/;

/**
 * The user id a person input names: the caller's own for "me", an id as it is, else the one user whose
 * handle, name or part of a name it is (several or none refused, naming whom). A caller record without
 * an id cannot be filtered on: that is said, rather than listing everyone's records as if they were the
 * caller's.
 */
export async function personId(
  client: LabdataClient,
  named: string | undefined,
  where: { tool: string; field: string },
  ctx: LabdataCall,
): Promise<string | undefined> {
  if (named === undefined || USER_ID.test(named)) return named;
  if (named.toLowerCase() === "me") {
    const { id } = await client.me(ctx);
    if (!id) throw new InvalidResponseError("the platform's users/me answer has no id to filter on");
    return id;
  }
  const users = await usersNamed(client, named, ctx);
  const [only] = users;
  if (users.length === 1 && only?.id) return only.id;
  const refused = `Error: Invalid input for ${where.tool}: ${where.field}:`;
  if (users.length === 0) {
    throw new InvalidInputError(
      `${refused} nobody you may see has the handle or name '${named}'. Give 'me', a user id or a name.`,
    );
  }
  const each = users.map(
    (user) => `${nameAndId(user.name, user.id)}${user.handle ? ` @${user.handle}` : ""}`,
  );
  throw new InvalidInputError(
    `${refused} '${named}' names ${users.length === CANDIDATES ? `${CANDIDATES} or more people` : `${users.length} people`}: ${each.join(", ")}. Give one's id.`,
  );
}

/** The user id `creator` names (personId, for the creator filter). */
export function creatorId(
  client: LabdataClient,
  creator: string | undefined,
  tool: string,
  ctx: LabdataCall,
): Promise<string | undefined> {
  return personId(client, creator, { tool, field: "creator" }, ctx);
}
