// A free loopback port for a server that must be told its port before it starts (HAProxy, Redis,
// PostgreSQL, redirect URIs). Taken below the kernel's ephemeral range (Linux: 32768-60999), which
// outgoing connections draw from: a port picked there can be taken by any connection made between the
// pick and the server's bind, and with many connections open (replicas, pools) that race was lost.
import { readFileSync } from "node:fs";
import { createServer } from "node:net";

const LOW = 20_000;
const TRIES = 20;

/** The first port of the ephemeral range, 32768 where it cannot be read. */
function ephemeralStart(): number {
  try {
    const first = Number.parseInt(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8"), 10);
    return Number.isInteger(first) && first > LOW + 1000 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

/** Resolves `port` when it can be bound on `host` now (then lets it go), 0 when it cannot. */
function tryPort(port: number, host: string): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(0));
    server.listen(port, host, () => {
      const address = server.address();
      const bound = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(bound));
    });
  });
}

/** A free port on `host`: a random one below the ephemeral range, else one the OS picks. */
export async function freePort(host = "127.0.0.1"): Promise<number> {
  const high = ephemeralStart();
  for (let attempt = 0; attempt < TRIES; attempt++) {
    const port = await tryPort(LOW + Math.floor(Math.random() * (high - LOW)), host);
    if (port) return port;
  }
  const port = await tryPort(0, host);
  if (!port) throw new Error(`no free port on ${host}`);
  return port;
}
