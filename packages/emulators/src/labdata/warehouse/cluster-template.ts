// A fresh cluster (initdb) made once per machine, engine and account and kept in the temp folder:
// initdb is most of a server's start, so each server starts from a copy of it.
import { createHash, randomBytes } from "node:crypto";
import { chown, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Account, exists, run, versionOf } from "./postgres-binaries.js";

/** The superuser initdb makes; it logs in only over TLS from 127.0.0.1. */
export const ADMIN_ROLE = "warehouse_admin";
const INITDB_TIMEOUT_MS = 30_000;

export interface ClusterTemplate {
  dir: string;
  dataDir: string;
  password: string;
  /** Made by an earlier start (it may have been thinned out by a temp folder cleaner since). */
  reused: boolean;
}

/**
 * A fresh cluster (initdb) made once per machine, engine and account, then copied for each server:
 * initdb is most of a start's time. Made under a temp name then renamed, so parallel starts agree;
 * its superuser password is changed in each copy once it runs.
 */
export async function clusterTemplate(binDir: string, account: Account): Promise<ClusterTemplate> {
  const key = createHash("sha256")
    .update(`${binDir}\n${await versionOf(binDir)}\n${account?.uid ?? process.getuid?.()}`)
    .digest("hex")
    .slice(0, 16);
  const dir = join(tmpdir(), `lab-mcp-postgres-initdb-${key}`);
  const complete = async (at: string) =>
    (await exists(join(at, "data", "global", "pg_control"))) && (await exists(join(at, "password")));
  const reused = await complete(dir);
  if (!reused) {
    const staging = await mkdtemp(join(tmpdir(), "lab-mcp-postgres-initdb-staging-"));
    try {
      if (account) await chown(staging, account.uid, account.gid);
      const password = randomBytes(24).toString("base64url");
      const pwFile = join(staging, "password");
      await writeFile(pwFile, `${password}\n`, { mode: 0o600 });
      if (account) await chown(pwFile, account.uid, account.gid);
      await run(
        join(binDir, "initdb"),
        [
          "-D",
          join(staging, "data"),
          "-U",
          ADMIN_ROLE,
          `--pwfile=${pwFile}`,
          "--auth=scram-sha-256",
          "--encoding=UTF8",
          "--locale=C",
          "--no-sync",
          "--no-instructions",
        ],
        { ...(account ?? {}), timeout: INITDB_TIMEOUT_MS },
      );
      if (await complete(dir)) await rm(staging, { recursive: true, force: true });
      else await rm(dir, { recursive: true, force: true }).then(() => rename(staging, dir));
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      // Another process may have finished it meanwhile.
      if (!(await complete(dir))) throw error;
    }
  }
  const password = (await readFile(join(dir, "password"), "utf8")).trim();
  return { dir, dataDir: join(dir, "data"), password, reused };
}
