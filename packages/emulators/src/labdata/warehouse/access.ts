// Whose rows a minted login sees: the caller's (a user, or an app with its own grants), worked out
// with the platform's permission rules at every sync, so a membership change reaches the warehouse.
import { type Actor, readableFolderIds } from "../auth/permissions.js";
import { readableProjectIds } from "../notebook/access.js";
import type { TenantState } from "../state/emulator-state.js";

/** "user:<id>" or "app:<id>". */
export type PrincipalKey = string;

export function principalKey(actor: Actor): PrincipalKey {
  return actor.kind === "app" ? `app:${actor.app.id}` : `user:${actor.user.id}`;
}

/** The actor a principal is now, or null when it no longer may read anything (gone, suspended, archived). */
export function actorOf(tenant: TenantState, key: PrincipalKey): Actor | null {
  const [kind, id = ""] = key.split(/:(.*)/s);
  if (kind === "app") {
    const app = tenant.apps.get(id);
    const user = app ? tenant.users.get(app.serviceUserId) : undefined;
    return app && user && app.status === "active" ? { kind: "app", app, user } : null;
  }
  const user = tenant.users.get(id);
  return user && user.status === "active" ? { kind: "user", user } : null;
}

export interface Readable {
  folders: string[];
  projects: string[];
}

export function readableBy(tenant: TenantState, key: PrincipalKey): Readable {
  const actor = actorOf(tenant, key);
  if (!actor) return { folders: [], projects: [] };
  return { folders: [...readableFolderIds(tenant, actor)], projects: [...readableProjectIds(tenant, actor)] };
}
