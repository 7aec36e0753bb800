// A workspace ("group", fact sheet §8) as the repository sends it in GET /api/v3/workspaces: its counts
// under `stats`, the user's standing under `user_status` (is_member also at the top level in v3).
import { z } from "zod";
import { flag, inline, integer, isRecord, markdown, text, wholeNumber } from "./values.js";

const workspaceFields = {
  id: wholeNumber(0),
  uri: z.string(),
  title: z.string(),
  description: markdown,
  members: integer(0),
  protocols: integer(0),
  /** Whether the signed-in user is a member, and its owner. */
  is_member: flag,
  is_owner: flag,
};

export const workspaceSchema = z.preprocess((value) => {
  if (!isRecord(value)) return value;
  const stats = isRecord(value.stats) ? value.stats : {};
  const status = isRecord(value.user_status) ? value.user_status : {};
  const uri = text.parse(value.uri);
  return {
    ...value,
    uri,
    title: inline.parse(value.title) ?? uri,
    members: stats.total_members,
    protocols: stats.total_protocols,
    is_member: status.is_member ?? value.is_member,
    is_owner: status.is_owner,
  };
}, z.object(workspaceFields));
export type Workspace = z.infer<typeof workspaceSchema>;

/** A workspace as protocols_list_workspaces lists it: open to the fields it also says. */
export const workspaceItemSchema = z.looseObject({
  id: workspaceFields.id,
  uri: workspaceFields.uri,
  title: workspaceFields.title,
  members: workspaceFields.members,
  is_member: workspaceFields.is_member,
  is_owner: workspaceFields.is_owner,
});
