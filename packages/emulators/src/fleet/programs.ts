// Debian's programs the fleet runs (redis-server, haproxy): found on the PATH, or in the sbin folders
// that a user's PATH may not hold (Debian puts haproxy in /usr/sbin).
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

export const DEBIAN_PACKAGES = { "redis-server": "redis-server", haproxy: "haproxy" } as const;
export type FleetProgram = keyof typeof DEBIAN_PACKAGES;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The program's path, or undefined when it is not installed. */
export function findProgram(name: string, path = process.env.PATH ?? ""): string | undefined {
  const dirs = [...path.split(delimiter).filter(Boolean), "/usr/sbin", "/usr/local/sbin"];
  for (const dir of dirs) if (executable(join(dir, name))) return join(dir, name);
  return undefined;
}

/** One line naming the missing programs and how to install them. */
export function missingProgramsLine(missing: FleetProgram[]): string {
  const packages = missing.map((name) => DEBIAN_PACKAGES[name]).join(" ");
  return `${missing.join(" and ")} not found; install Debian's: sudo apt-get install ${packages}`;
}
