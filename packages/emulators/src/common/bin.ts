// What every emulator bin does the same way: its flags (--port, --seed, --ca-file, --help, read through
// argv.ts), a CA file it removes again if it chose the place, one stderr line and exit 2 on bad flags,
// and a clean stop.
import { rm } from "node:fs/promises";
import { dirname } from "node:path";
import { type FlagKinds, firstLine, parseFlags } from "./argv.js";
import { type CertificateAuthority, createCertificateAuthority, writeCaFile } from "./tls.js";

export interface EmulatorFlags {
  port: number;
  /** Undefined when not given: the emulator's own default. */
  seed: number | undefined;
  caFile: string | undefined;
  /** Values of the emulator's own choice flags (see `choiceFlags`); undefined when not given. */
  choices: Record<string, string | undefined>;
}

export interface RunningEmulator {
  /** What to print once it is up. */
  banner: string;
  close(): Promise<void>;
}

/**
 * Main of an emulator bin: parses the flags (`--seed` only when `takesSeed`), makes the CA, starts the
 * emulator and stops it on SIGINT/SIGTERM with exit code 0.
 */
export async function runEmulatorBin(options: {
  name: string;
  usage: string;
  takesSeed: boolean;
  /** The emulator's own flags that take one of a few values, e.g. {dialect: ["legacy", "recorded"]}. */
  choiceFlags?: Record<string, readonly string[]>;
  start(flags: EmulatorFlags, ca: CertificateAuthority, caFile: string): Promise<RunningEmulator>;
}): Promise<void> {
  const { name } = options;
  let flags: EmulatorFlags;
  try {
    const parsed = emulatorFlags(process.argv.slice(2), options.takesSeed, options.choiceFlags ?? {});
    if (parsed === "help") {
      process.stdout.write(`${options.usage}\n`);
      return;
    }
    flags = parsed;
  } catch (error) {
    process.stderr.write(`${name}: ${firstLine(error)} (see --help)\n`);
    process.exit(2);
  }

  try {
    const ca = await createCertificateAuthority();
    const caFile = await writeCaFile(ca, flags.caFile);
    // A CA file we chose the place of is ours to remove; one the user named is theirs.
    const removeCa = () =>
      flags.caFile ? Promise.resolve() : rm(dirname(caFile), { recursive: true, force: true });
    let running: RunningEmulator;
    try {
      running = await options.start(flags, ca, caFile);
    } catch (error) {
      await removeCa();
      throw error;
    }
    process.stdout.write(running.banner);
    const stop = (): void => {
      Promise.all([running.close(), removeCa()]).then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  } catch (error) {
    process.stderr.write(`${name}: ${firstLine(error)}\n`);
    process.exit(1);
  }
}

function emulatorFlags(
  argv: string[],
  takesSeed: boolean,
  choiceFlags: Record<string, readonly string[]>,
): EmulatorFlags | "help" {
  const kinds: FlagKinds = {
    port: "string",
    "ca-file": "string",
    ...(takesSeed ? { seed: "string" } : {}),
    ...Object.fromEntries(Object.keys(choiceFlags).map((name) => [name, "string"])),
  };
  const values = parseFlags(argv, kinds);
  if (values.help) return "help";
  const text = (name: string) => {
    const value = values[name];
    return typeof value === "string" ? value : undefined;
  };
  const caFile = text("ca-file");
  if (caFile === "") throw new Error("--ca-file must not be empty");
  const choices: Record<string, string | undefined> = {};
  for (const [name, allowed] of Object.entries(choiceFlags)) {
    const value = text(name);
    if (value !== undefined && !allowed.includes(value))
      throw new Error(`--${name} must be one of ${allowed.join(", ")}, got '${value}'`);
    choices[name] = value;
  }
  const seed = text("seed");
  return {
    port: integerFlag("port", text("port") ?? "0", 65535),
    seed: seed === undefined ? undefined : integerFlag("seed", seed, 0xffffffff),
    caFile,
    choices,
  };
}

function integerFlag(name: string, raw: string, max: number): number {
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > max) {
    throw new Error(`--${name} must be an integer from 0 to ${max}, got '${raw}'`);
  }
  return Number(raw);
}
