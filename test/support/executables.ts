// Finding a program the tests drive (Chromium, redis-server): the path a setting names, else the first
// of its names on the PATH (and in any extra folders), as long as it may be executed.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The path in `setting` (an environment variable) if set, else the first of `names` found; or undefined. */
export function findExecutable(
  setting: string,
  names: string[],
  extraDirs: string[] = [],
): string | undefined {
  const chosen = process.env[setting];
  if (chosen) return executable(chosen) ? chosen : undefined;
  const dirs = [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), ...extraDirs];
  for (const dir of dirs) {
    for (const name of names) if (executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}
