// The fleet's Redis: Debian's redis-server on a free loopback port, nothing written to disk.
import { connect, createServer } from "node:net";
import { type HelperProcess, startHelperProcess } from "./helper-process.js";

const START_TIMEOUT_MS = 10_000;

export interface FleetRedis {
  process: HelperProcess;
  /** redis://127.0.0.1:<port> */
  url: string;
}

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

/** Starts redis-server (at `program`) with its working folder `dir`, once it answers PING. */
export async function startRedis(program: string, dir: string): Promise<FleetRedis> {
  const port = await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
  const redis = startHelperProcess("redis", program, [...args, "--dir", dir, "--loglevel", "warning"]);
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exited = false;
  void redis.exited.then(() => {
    exited = true;
  });
  while (!exited && Date.now() < deadline) {
    if (await answersPing(port)) return { process: redis, url: `redis://127.0.0.1:${port}` };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await redis.stop();
  const said = redis.output().trim();
  throw new Error(`redis-server did not start on port ${port}${said ? `: ${said.split("\n").at(-1)}` : ""}`);
}

/** Whether a Redis answers PING on the loopback port (one short attempt). */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    let reply = "";
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes("\r\n")) done(reply.startsWith("+PONG"));
    });
  });
}
