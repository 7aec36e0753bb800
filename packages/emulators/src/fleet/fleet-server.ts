// What a fleet serves: each tool server behind the load balancer, and its replicas (for the banner
// and for whoever started the fleet).

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
