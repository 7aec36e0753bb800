// Free loopback ports for servers a test starts on a port it must name (redirect URIs, Redis, bins).
import { createServer } from "node:net";

/** A free loopback port: bound by the OS, then let go. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
