// A tenant's registry and inventory records, kept beside the tenant's own state (which this part
// does not widen): one store per tenant, made on first use.
import type { TenantState } from "../state/emulator-state.js";
import type {
  AsyncTaskRecord,
  Box,
  Container,
  EntitySchemaRecord,
  Location,
  Plate,
  RegistryEntity,
  RegistryRecord,
} from "./model.js";

export class RegistryStore {
  readonly entities = new Map<string, RegistryEntity>();
  readonly schemas = new Map<string, EntitySchemaRecord>();
  readonly registries = new Map<string, RegistryRecord>();
  readonly locations = new Map<string, Location>();
  readonly boxes = new Map<string, Box>();
  readonly plates = new Map<string, Plate>();
  readonly containers = new Map<string, Container>();
  readonly tasks = new Map<string, AsyncTaskRecord>();
}

const stores = new WeakMap<TenantState, RegistryStore>();

export function registryOf(tenant: TenantState): RegistryStore {
  let store = stores.get(tenant);
  if (!store) {
    store = new RegistryStore();
    stores.set(tenant, store);
  }
  return store;
}
