// Where secrets the user asked us to remember live: the user's own config folder (XDG on Linux,
// Application Support on macOS, AppData on Windows), never the project tree, files readable by the
// user alone.
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import envPaths from "env-paths";

/** The file `name` in lab-mcp's folder of the user's config directory. */
export function userConfigFile(name: string, env: NodeJS.ProcessEnv = process.env): string {
  // env-paths reads XDG_CONFIG_HOME itself; this keeps a test's or a user's override explicit.
  const base = env.XDG_CONFIG_HOME
    ? join(env.XDG_CONFIG_HOME, "lab-mcp")
    : envPaths("lab-mcp", { suffix: "" }).config;
  return join(base, name);
}

/**
 * Writes JSON with mode 0600 in a folder of mode 0700, atomically: a reader (another process of the
 * user's) sees the old content or the new, never half of it, and a crash leaves the old file whole.
 */
export async function writePrivateJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
  );
  try {
    await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600, flag: "wx" });
    await chmod(temporary, 0o600); // the umask may have taken bits away; never added any
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export async function readJsonIfPresent(path: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export async function removeFile(path: string): Promise<void> {
  await rm(path, { force: true });
}
