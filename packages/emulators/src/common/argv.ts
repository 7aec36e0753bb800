// The one way a bin of this package reads its flags: node's parseArgs, strict, no positionals. A bad
// flag is one stderr line naming it (and exit 2); --help prints the usage (and exit 0).
import { parseArgs } from "node:util";

/** Flag name (without "--") -> whether it takes a value. */
export type FlagKinds = Record<string, "string" | "boolean">;

export type FlagValues<K extends FlagKinds> = {
  [Name in keyof K]?: K[Name] extends "boolean" ? boolean : string;
};

/** Parses `argv` against `kinds`, plus --help/-h. Throws an Error whose first line says what is wrong. */
export function parseFlags<K extends FlagKinds>(
  argv: string[],
  kinds: K,
): FlagValues<K> & { help?: boolean } {
  const options = Object.fromEntries(Object.entries(kinds).map(([name, type]) => [name, { type }]));
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: { ...options, help: { type: "boolean", short: "h" } },
  });
  // parseArgs checked every value against its kind, which is what FlagValues says.
  return values as FlagValues<K> & { help?: boolean };
}

/**
 * The flags of this process, for a bin's main: on --help prints `usage` and exits 0, on a bad flag
 * prints "<bin>: <problem> (see --help)" and exits 2.
 */
export function readFlagsOrExit<K extends FlagKinds>(bin: string, usage: string, kinds: K): FlagValues<K> {
  let values: FlagValues<K> & { help?: boolean };
  try {
    values = parseFlags(process.argv.slice(2), kinds);
  } catch (error) {
    return exitWithUsageError(bin, firstLine(error));
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return values;
}

export function exitWithUsageError(bin: string, problem: string): never {
  process.stderr.write(`${bin}: ${problem} (see --help)\n`);
  process.exit(2);
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "failed";
}
