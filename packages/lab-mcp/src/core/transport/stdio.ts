// stdio: one client, the user who started the server, in whichever era it opens. stdout carries nothing
// but JSON-RPC.
import { serveStdio as serveSdkStdio } from "@modelcontextprotocol/server/stdio";
import type { ClientSession } from "../caller.js";
import type { ServerFactory } from "../server/factory.js";
import type { RunningTransport } from "./running.js";

/** The one client of stdio: the user who started the server. */
const STDIO_CLIENT: ClientSession = { caller: "stdio", isolated: false };

/** Serves one client over stdin/stdout, in whichever era it opens. stdout carries nothing but JSON-RPC. */
export async function serveStdio(factory: ServerFactory): Promise<RunningTransport> {
  // Anything printed by mistake must not corrupt the protocol stream.
  console.log = console.error;
  console.info = console.error;
  // The client closing its end of our stdout (EPIPE) is the end of the session, not a crash.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") process.exit(0);
    throw error;
  });
  const handle = serveSdkStdio(() => factory(STDIO_CLIENT));
  return { close: () => handle.close() };
}
