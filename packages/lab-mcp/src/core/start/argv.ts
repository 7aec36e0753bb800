// The one command-line parser of the tool-server bins: `--flag value`, `--flag=value`, a boolean flag
// alone (`--read-only`), and `--help`/`-h`. Settings flags and a subcommand's own flags go through it
// alike. Problems are ConfigErrors; a stray word is never printed back (it may be half a secret).
import { ConfigError, suggest } from "../config-error.js";

export interface FlagSpec {
  /** "--base-url" */
  name: string;
  /** Takes no value, or an optional true/false; alone it means true. */
  boolean?: boolean;
}

export interface ParsedArguments {
  help: boolean;
  /** Flag name -> the text given, in the order given (a repeated flag: the last one). */
  given: Map<string, string>;
}

export function parseArguments(argv: readonly string[], flags: readonly FlagSpec[]): ParsedArguments {
  const byName = new Map(flags.map((flag) => [flag.name, flag]));
  const given = new Map<string, string>();
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    if (!arg.startsWith("-"))
      throw new ConfigError("Unexpected argument (not shown); settings are --flag value pairs");
    const equals = arg.indexOf("=");
    const name = equals === -1 ? arg : arg.slice(0, equals);
    const flag = byName.get(name);
    if (!flag) throw new ConfigError(`Unknown option ${name}${suggest(name, [...byName.keys()])}`);
    let value = equals === -1 ? undefined : arg.slice(equals + 1);
    if (value === undefined) {
      const next = argv[i + 1];
      if (flag.boolean && (next === undefined || next.startsWith("--"))) value = "true";
      else if (next === undefined) throw new ConfigError(`Option ${name} needs a value`);
      else {
        value = next;
        i++;
      }
    }
    given.set(name, value);
  }
  return { help, given };
}
