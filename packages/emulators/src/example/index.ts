export type { Fault } from "../common/faults.js";
export type { LoggedRequest } from "../common/request-log.js";
export type { CertificateAuthority } from "../common/tls.js";
export {
  API_BASE_PATH,
  type ExampleEmulator,
  type ExampleEmulatorOptions,
  startExampleEmulator,
} from "./server.js";
export { type ExampleUser, SEED_USERS } from "./users.js";
