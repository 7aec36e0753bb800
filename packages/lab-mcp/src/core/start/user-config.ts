// Where secrets the user asked us to remember live: the user's own config folder (XDG on Linux,
// Application Support on macOS, AppData on Windows), never the project tree, files readable by the
// user alone.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import envPaths from "env-paths";

/** lab-mcp's folder of the user's config directory. */
export function userConfigFolder(env: NodeJS.ProcessEnv = process.env): string {
  // env-paths reads XDG_CONFIG_HOME itself; this keeps a test's or a user's override explicit.
  return env.XDG_CONFIG_HOME
    ? join(env.XDG_CONFIG_HOME, "lab-mcp")
    : envPaths("lab-mcp", { suffix: "" }).config;
}

/** The file `name` in lab-mcp's folder of the user's config directory. */
export function userConfigFile(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(userConfigFolder(env), name);
}

/**
 * The root of the git work tree holding `file`, if any: a secret kept there is one `git add .` away
 * from a commit.
 */
export function gitWorkTreeOf(file: string): string | undefined {
  let folder = dirname(resolve(file));
  for (;;) {
    if (existsSync(join(folder, ".git"))) return folder;
    const parent = dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

/** The one-line refusal of a setting naming a secrets file inside a git work tree, if it is. */
export function secretFileProblem(setting: string, file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  const tree = gitWorkTreeOf(file);
  if (!tree) return undefined;
  return `${setting} is inside the git work tree ${tree}, where a secret can end up in a commit; choose a file outside it`;
}

/**
 * Writes JSON with mode 0600 in a folder of mode 0700, atomically: a reader (another process of the
 * user's) sees the old content or the new, never half of it, and a crash leaves the old file whole.
 */
export async function writePrivateJson(path: string, value: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await tightenOwnFolder(dirname(path));
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

/**
 * lab-mcp's own config folder, made before 0700 was the rule or by hand, is made private again: it
 * holds nothing but our secrets, and one others may write to lets them swap a secret for their own. A
 * folder the user chose for a file is theirs to set. A folder we cannot tighten throws (EPERM).
 */
async function tightenOwnFolder(folder: string): Promise<void> {
  if (resolve(folder) !== resolve(userConfigFolder())) return;
  const { mode } = await stat(folder);
  if ((mode & 0o077) !== 0) await chmod(folder, 0o700);
}

/** The JSON in `path`, or undefined when there is no such file; our own config folder made private first. */
export async function readJsonIfPresent(path: string): Promise<unknown> {
  try {
    await tightenOwnFolder(dirname(path));
    return JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export async function removeFile(path: string): Promise<void> {
  await rm(path, { force: true });
}
