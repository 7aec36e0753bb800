// Where the tenant's warehouse is: LABDATA_WAREHOUSE_URL, else the form Benchling documents for a
// tenant on benchling.com (postgres-warehouse.<tenant>.benchling.com, port 5432, database
// "warehouse"); else unknown, and the tools say which setting to give.

export interface WarehouseAddress {
  host: string;
  port: number;
  database: string;
  /** "setting": LABDATA_WAREHOUSE_URL; "tenant": Benchling's form, guessed from LABDATA_BASE_URL. */
  source: "setting" | "tenant";
}

/** The address from the setting (postgres://host:port/database, normalised) or the tenant's. */
export function warehouseAddress(
  configured: string | undefined,
  baseUrl: string,
): WarehouseAddress | undefined {
  if (configured) {
    const url = new URL(configured);
    return {
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port: Number(url.port || 5432),
      database: decodeURIComponent(url.pathname.slice(1)),
      source: "setting",
    };
  }
  const tenant = /^([a-z0-9-]+)\.benchling\.com$/i.exec(new URL(baseUrl).hostname)?.[1];
  return tenant
    ? {
        host: `postgres-warehouse.${tenant.toLowerCase()}.benchling.com`,
        port: 5432,
        database: "warehouse",
        source: "tenant",
      }
    : undefined;
}

/** host:port, as said in errors and by `check`. */
export function whereOf(address: WarehouseAddress): string {
  return `${address.host.includes(":") ? `[${address.host}]` : address.host}:${address.port}`;
}
