// Which protocols a user may see. Both token kinds see through the eyes of one user: a
// CLIENT_ACCESS_TOKEN the application's owner, an OAUTH_ACCESS_TOKEN the user who approved it. That user
// sees every public protocol, their own private ones, and private ones shared with them.
import type { Protocol, User } from "../model.js";

export const LIST_FILTERS = ["public", "user_public", "user_private", "shared_with_user"] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];

export function canSee(protocol: Protocol, viewer: User | undefined): boolean {
  if (protocol.isPublic) return true;
  if (!viewer) return false;
  return protocol.creatorId === viewer.id || protocol.sharedWith.includes(viewer.id);
}

/** The list filters of GET /api/v3/protocols; user_* mean the caller's own protocols. */
export function inFilter(protocol: Protocol, filter: ListFilter, viewer: User): boolean {
  switch (filter) {
    case "public":
      return protocol.isPublic;
    case "user_public":
      return protocol.isPublic && protocol.creatorId === viewer.id;
    case "user_private":
      return !protocol.isPublic && protocol.creatorId === viewer.id;
    case "shared_with_user":
      return !protocol.isPublic && protocol.sharedWith.includes(viewer.id);
  }
}
