// Fresh random secrets in the shapes the real service hands out (e.g. "pr_live_id_..." client ids and
// 64-hex-digit access tokens), so clients meet realistic values.
import { randomBytes } from "node:crypto";

function hex(bytes: number): string {
  return randomBytes(bytes).toString("hex");
}

export const newClientId = (): string => `pr_live_id_${hex(16)}`;
export const newClientSecret = (): string => `pr_live_sc_${hex(16)}`;
export const newAccessToken = (): string => hex(32);
export const newRefreshToken = (): string => hex(32);
export const newAuthorizationCode = (): string => hex(20);
export const newAdminSecret = (): string => `pradm_${hex(16)}`;
/** Session ids and form tickets: unguessable, never shown to the user. */
export const newOpaqueId = (): string => randomBytes(24).toString("base64url");
/** Easy to type from a banner: 16 letters and digits. */
export const newPassword = (): string => randomBytes(12).toString("base64url").replace(/[-_]/g, "x");
