// The tenants' warehouses of one emulator: each started on first use (a test or a sandbox that asks,
// or the tenant's first credentials request), told of every write, stopped with the emulator.
import type { Clock } from "../../common/clock.js";
import type { CertificateAuthority } from "../../common/tls.js";
import type { EmulatorState } from "../state/emulator-state.js";
import { TenantWarehouse } from "./tenant-warehouse.js";

export interface WarehouseOptions {
  /** Tenants whose warehouse starts with the emulator; others start on first use. */
  tenants?: string[];
  /** A PostgreSQL bin folder (e.g. /usr/lib/postgresql/17/bin); default LABDATA_WAREHOUSE_POSTGRES_BIN,
   * else PostgreSQL from the npm registry. */
  postgresBinDir?: string;
}

export class Warehouses {
  readonly #starting = new Map<string, Promise<TenantWarehouse>>();
  readonly #running = new Map<string, TenantWarehouse>();
  readonly #binDir: string | undefined;

  constructor(
    private readonly state: EmulatorState,
    private readonly ca: CertificateAuthority,
    private readonly clock: Clock,
    options: WarehouseOptions = {},
  ) {
    this.#binDir = options.postgresBinDir ?? (process.env.LABDATA_WAREHOUSE_POSTGRES_BIN || undefined);
  }

  /** The tenant's warehouse, started if it is not yet; a failed start is tried again next time. */
  forTenant(name: string): Promise<TenantWarehouse> {
    const tenant = this.state.tenants.get(name);
    if (!tenant) return Promise.reject(new Error(`no tenant '${name}'`));
    let starting = this.#starting.get(name);
    if (!starting) {
      starting = TenantWarehouse.start(tenant, { ca: this.ca, clock: this.clock, binDir: this.#binDir });
      this.#starting.set(name, starting);
      starting.then(
        (warehouse) => {
          this.#running.set(name, warehouse);
          // Writes made while it loaded were not announced to it: one more sync catches them.
          warehouse.changed();
        },
        () => this.#starting.delete(name),
      );
    }
    return starting;
  }

  /** The tenant's warehouse if it runs, without starting it. */
  running(name: string): TenantWarehouse | undefined {
    return this.#running.get(name);
  }

  /** Something was written: every running warehouse syncs shortly. */
  changed(): void {
    for (const warehouse of this.#running.values()) warehouse.changed();
  }

  async close(): Promise<void> {
    const all = await Promise.allSettled(this.#starting.values());
    await Promise.all(all.map((result) => (result.status === "fulfilled" ? result.value.stop() : undefined)));
  }
}
