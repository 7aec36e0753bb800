// What the fleet serves, as the launcher returns it and the banner prints it: one MCP endpoint per tool
// server (the load balancer's) and its replicas. Its own file so fleet.ts and banner.ts both stand on it.

export interface FleetReplica {
  name: string;
  /** Its own MCP endpoint, bypassing the load balancer. */
  url: string;
  healthUrl: string;
  readyUrl: string;
}

export interface FleetServer {
  key: string;
  serverName: string;
  /** The one MCP endpoint: the load balancer's. */
  url: string;
  identity: string;
  replicas: FleetReplica[];
}
