// Is a loopback port free? Asked before anything starts, so that a taken port is one clear error.
import { createServer } from "node:net";

export async function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}
