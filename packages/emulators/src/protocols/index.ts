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
  NewWorkspace,
  ProtocolsAdmin,
  StoredProtocol,
  UserProfile,
  WorkspaceInfo,
} from "./admin/handle.js";
export { StatusCode } from "./api/api-errors.js";
export type { ProtocolWire } from "./api/api-shapes.js";
export { DEFAULT_SEED } from "./demo/protocol-drafts.js";
export { DEMO_REDIRECT_URI, type DemoSetup, type DemoUser } from "./demo/setup.js";
export {
  DEFAULT_DIALECT_PRESET,
  DIALECT_PRESETS,
  type Dialect,
  type DialectPatch,
  type DialectPreset,
  presetDialect,
} from "./dialect.js";
export { AUTHORIZE_PATH } from "./oauth/html-pages.js";
export { TOKEN_PATH } from "./oauth/routes.js";
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
