// Finding a program the tests drive (Chromium, redis-server): the path a setting names, else the first
// of its names on the PATH (and in any extra folders), as the fleet finds its programs.
import { basename, delimiter, dirname, join } from "node:path";
import { findProgram } from "../../packages/emulators/src/fleet/programs.js";

/** The path in `setting` (an environment variable) if set, else the first of `names` found; or undefined. */
export function findExecutable(
  setting: string,
  names: string[],
  extraDirs: string[] = [],
): string | undefined {
  const chosen = process.env[setting];
  // The chosen path itself, executable, or nothing: never another program found elsewhere.
  if (chosen) {
    const there = join(dirname(chosen), basename(chosen));
    return findProgram(basename(chosen), dirname(chosen)) === there ? chosen : undefined;
  }
  const path = [process.env.PATH ?? "", ...extraDirs].join(delimiter);
  for (const name of names) {
    const found = findProgram(name, path);
    if (found) return found;
  }
  return undefined;
}
