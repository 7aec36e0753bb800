// What the servers' admin subcommands share: where they write, and whom `forget` names.

import { personSubject } from "../auth/resource-server.js";
import type { FlagSpec } from "./argv.js";
import { ConfigError } from "./config.js";

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

export const consoleOutput: Output = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** The flags of `forget` beside the settings. */
export const FORGET_FLAGS: FlagSpec[] = [{ name: "--subject" }, { name: "--issuer" }];

/**
 * The person `forget --subject <sub> [--issuer <issuer>]` names, as the resource server names them
 * (`defaultIssuer`: MCP_AUTH_ISSUER as the servers have it).
 */
export function forgetSubjectOf(given: Map<string, string>, defaultIssuer: string | undefined): string {
  const sub = given.get("--subject")?.trim();
  if (!sub)
    throw new ConfigError("forget needs --subject <sub>: the person's subject at the identity provider");
  const issuer = (given.get("--issuer") ?? defaultIssuer)?.trim();
  if (!issuer)
    throw new ConfigError("forget needs --issuer <issuer>, or MCP_AUTH_ISSUER as the servers have it");
  return personSubject(issuer, sub);
}
