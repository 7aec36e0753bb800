// The fleet's Redis: Debian's redis-server on a free loopback port, nothing written to disk.
import { connect } from "node:net";
import { freePort } from "./free-port.js";
import { type HelperProcess, startHelperProcess } from "./helper-process.js";

export { freePort };

const START_TIMEOUT_MS = 10_000;

export interface FleetRedis {
  process: HelperProcess;
  /** redis://127.0.0.1:<port> */
  url: string;
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
