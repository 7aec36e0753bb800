// Runs a built bin's subcommand (`check`) to its end, as a user at a terminal would: its exit code and
// what it printed.
import { binPath } from "./clients.js";
import { type Finished, runToEnd } from "./processes.js";

export { closedPort } from "./processes.js";

/** The bin with exactly `env` (plus PATH): no NODE_EXTRA_CA_CERTS unless given. */
export function runBin(bin: string, args: string[], env: Record<string, string>): Promise<Finished> {
  return runToEnd(process.execPath, [binPath(bin), ...args], { PATH: process.env.PATH ?? "", ...env });
}
