export { Clock } from "../common/clock.js";
export type { Fault } from "../common/faults.js";
export type { LoggedRequest } from "../common/request-log.js";
export type { CertificateAuthority } from "../common/tls.js";
export { AdminError } from "./admin/admin-error.js";
export type { LabdataAdmin } from "./admin/handle.js";
export type { CreatedApiKey, CreatedApp, CreatedSecret } from "./admin/identities.js";
export type { TenantView } from "./admin/tenants.js";
export type * from "./admin/views.js";
export { API_PREFIX } from "./api/request.js";
export type { DemoApp, DemoData, DemoUser } from "./demo/tenants.js";
export {
  type LabdataEmulator,
  type LabdataEmulatorOptions,
  startLabdataEmulator,
  type TenantHandle,
  type WarehouseHandle,
} from "./server.js";
export type { AuditEntry, AuthMethod } from "./state/audit-log.js";
export { ARCHIVE_REASONS, type TenantSettings } from "./state/model.js";
export type { WarehouseOptions } from "./warehouse/warehouses.js";
