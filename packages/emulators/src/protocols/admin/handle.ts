// The emulator's control operations: users, client applications, client tokens, protocols and settings.
// Tests call them in process; admin/routes.ts offers exactly the same over HTTP. The handle is made of
// three pieces, each validating its inputs (parse-input.ts), so both ways refuse the same bad values.
import type { ProtocolsContext } from "../context.js";
import { type AccountsAdmin, accountsAdmin } from "./accounts.js";
import { type ContentAdmin, contentAdmin } from "./content.js";
import { type ControlsAdmin, controlsAdmin } from "./controls.js";

export type {
  ApplicationInfo,
  CreatedUser,
  IssuedClientToken,
  NewApplication,
  NewUser,
  UserProfile,
} from "./accounts.js";
export type { NewProtocol, NewWorkspace, StoredProtocol, WorkspaceInfo } from "./content.js";
export type { DialectState } from "./controls.js";
export { parseInput } from "./parse-input.js";

export interface ProtocolsAdmin extends AccountsAdmin, ContentAdmin, ControlsAdmin {}

export function createAdminHandle(ctx: ProtocolsContext): ProtocolsAdmin {
  return { ...accountsAdmin(ctx), ...contentAdmin(ctx), ...controlsAdmin(ctx) };
}
