// The start of a bin's network: the proxies the environment names (HTTPS_PROXY, NO_PROXY, ...) for
// every fetch of the process, or one line saying why a proxy variable cannot be used (exit code 2).
import { proxyProblem, useProxyFromEnvironment } from "../http/proxy.js";

/** 0 when the network is set up; else the exit code, the problem written to stderr. */
export async function useNetworkSettings(
  command: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const problem = proxyProblem(env);
  if (problem) {
    process.stderr.write(`${command}: ${problem}.\n`);
    return 2;
  }
  await useProxyFromEnvironment(env);
  return 0;
}
