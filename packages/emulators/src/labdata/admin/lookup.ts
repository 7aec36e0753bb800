// Finding a tenant or one of its records by id for an admin operation, or refusing with a 404.
import type { EmulatorState, TenantState } from "../state/emulator-state.js";
import { missing } from "./admin-error.js";

export function tenantOf(state: EmulatorState, name: string): TenantState {
  const tenant = state.tenants.get(name);
  if (!tenant) throw missing(`no tenant '${name}'`);
  return tenant;
}

export function recordOf<T>(records: Map<string, T>, id: string, what: string): T {
  const record = records.get(id);
  if (!record) throw missing(`no ${what} '${id}'`);
  return record;
}
