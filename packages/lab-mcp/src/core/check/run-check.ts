// `<bin> check`: tries the configuration the way the server will use it and prints, step by step,
// what works and what to fix: the settings and the address's form, the proxy, DNS, TCP, TLS, then the
// service's own steps (who the credential is, a sample read) and the rate headers the remote sent.
// Exit code 0 when every step passed, 1 otherwise.

import { proxyProblem, useProxyFromEnvironment } from "../http/proxy.js";
import type { RequestScope } from "../http/remote-client.js";
import { ConfigError } from "../start/config.js";
import { coreSettingsOf, loadSettings, serviceRuntimeOf } from "../start/run.js";
import type { ServiceDefinition } from "../start/service.js";
import type { SettingsShape, ValuesOf } from "../start/setting.js";
import { networkSteps } from "./network-steps.js";
import { type CheckStep, failed, formatReport, passed } from "./report.js";

/** What a service adds to the check: where its API is, and its steps once the network is fine. */
export interface ServiceCheck<S, Shape extends SettingsShape> {
  /** The tenant's address (normalised by its setting) and the API root the service adds to it. */
  address(values: ValuesOf<Shape>): { url: string; apiRoot: string };
  /** The credential (who it is) and a sample read, on the service as the server builds it. */
  steps(service: S, scope: RequestScope): Promise<CheckStep[]>;
}

const RATE_HEADERS = ["x-rate-limit-limit", "x-rate-limit-remaining", "x-rate-limit-reset", "retry-after"];

export async function runCheck<S, Shape extends SettingsShape>(
  definition: ServiceDefinition<S, Shape>,
  command: string,
  argv: string[],
  check: ServiceCheck<S, Shape>,
  env: NodeJS.ProcessEnv = process.env,
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<number> {
  const steps = await checkSteps(definition, command, argv, check, env);
  write(`${formatReport(command, steps)}\n`);
  return steps.every((step) => step.ok) ? 0 : 1;
}

async function checkSteps<S, Shape extends SettingsShape>(
  definition: ServiceDefinition<S, Shape>,
  command: string,
  argv: string[],
  check: ServiceCheck<S, Shape>,
  env: NodeJS.ProcessEnv,
): Promise<CheckStep[]> {
  let loaded: ReturnType<typeof loadSettings<S, Shape>>;
  try {
    loaded = loadSettings(definition, argv, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return [failed("settings", error.message, `run '${command} --help' for every setting and its form`)];
  }
  if (loaded.help) return [failed("settings", "--help is not a check; run the check without it")];
  const { url, apiRoot } = check.address(loaded.values);
  const steps = [passed("address", `${url} (requests go to ${url}/${apiRoot})`)];
  // The proxy variables are read as the server reads them; a malformed one is the failure here.
  const problem = proxyProblem(env);
  if (problem) return [...steps, failed("proxy", problem)];
  await useProxyFromEnvironment(env);
  const target = new URL(url);
  const reached = await networkSteps(target, env);
  steps.push(...reached);
  if (!reached.every((step) => step.ok)) return steps;

  const core = coreSettingsOf(loaded.values, env);
  const service = definition.createService(loaded.values, serviceRuntimeOf(core, env));
  const seen = new Map<string, string>();
  const scope: RequestScope = {
    onResponse(_status, headers) {
      for (const name of RATE_HEADERS) {
        const value = headers.get(name);
        if (value !== null) seen.set(name, value);
      }
    },
  };
  steps.push(...(await check.steps(service, scope)));
  steps.push({
    name: "rate limit",
    ok: true,
    note: true,
    detail:
      seen.size > 0
        ? [...seen].map(([name, value]) => `${name}: ${value}`).join(", ")
        : "the remote sent no rate headers (the server keeps its own client-side limit)",
  });
  await core.state.close().catch(() => undefined);
  return steps;
}

/** The line --help shows for the subcommand. */
export function checkHelp(command: string): string {
  return `  ${command} check
      Tries these settings the way the server will use them and prints, step by step, what works and
      what to fix: the address, the proxy (HTTPS_PROXY, NO_PROXY), DNS, TCP, TLS (NODE_EXTRA_CA_CERTS),
      the credential, a sample read and the rate headers seen. Exit code 0 when all pass, 1 otherwise.`;
}
