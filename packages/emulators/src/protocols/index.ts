export type { Clock } from "../common/clock.js";
export type { Fault } from "../common/faults.js";
export type { LoggedRequest } from "../common/request-log.js";
export type { CertificateAuthority } from "../common/tls.js";
export type {
  ApplicationInfo,
  CreatedUser,
  DialectState,
  IssuedClientToken,
  NewApplication,
  NewProtocol,
  NewUser,
  ProtocolsAdmin,
  UserProfile,
} from "./admin-handle.js";
export { StatusCode } from "./api-errors.js";
export { DEFAULT_SEED } from "./demo-data.js";
export { DEMO_REDIRECT_URI, type DemoSetup, type DemoUser } from "./demo-setup.js";
export {
  DEFAULT_DIALECT_PRESET,
  DIALECT_PRESETS,
  type Dialect,
  type DialectPatch,
  type DialectPreset,
  presetDialect,
} from "./dialect.js";
export { AUTHORIZE_PATH } from "./html-pages.js";
export {
  type ProtocolsEmulator,
  type ProtocolsEmulatorOptions,
  startProtocolsEmulator,
} from "./server.js";
export {
  ONE_YEAR_SECONDS,
  type ProtocolsSettings,
  type RateLimitSettings,
  type SettingsPatch,
} from "./settings.js";
export { TOKEN_PATH } from "./tenant-routes.js";
export type { ProtocolWire } from "./wire.js";
