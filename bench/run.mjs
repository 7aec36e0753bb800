// Runs every bench/*.bench.mjs (or those whose name contains the filter argument) as its own Node
// process, with a throwaway CA that the benchmark can sign its emulators with and that the child
// processes it starts trust through NODE_EXTRA_CA_CERTS. Usage: node bench/run.mjs [name-filter]
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { createCertificateAuthority } from "../packages/emulators/dist/common/tls.js";

const BENCH_DIR = import.meta.dirname;
const SUFFIX = ".bench.mjs";

function machineHeader() {
  const cores = cpus();
  const model = cores[0]?.model.trim() ?? "unknown CPU";
  const memoryGiB = (totalmem() / 1024 ** 3).toFixed(1);
  return [
    `machine: ${model}, ${cores.length} cores, ${memoryGiB} GiB memory`,
    `runtime: Node ${process.version} on ${process.platform}-${process.arch}`,
  ].join("\n");
}

// Ctrl-C or a kill stops the benchmark running now, runs no further one, and still removes the temp dir.
let current;
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    interrupted = true;
    current?.kill(signal);
  });
}

/** Runs one benchmark file; resolves to its exit code (or 1 when it died of a signal). */
function runBenchmark(file, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(BENCH_DIR, file)], { env, stdio: "inherit" });
    current = child;
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (signal) process.stderr.write(`${file} was killed by ${signal}\n`);
      resolve(code ?? 1);
    });
  });
}

async function main() {
  const filter = process.argv[2];
  const all = (await readdir(BENCH_DIR)).filter((name) => name.endsWith(SUFFIX)).sort();
  const selected = filter ? all.filter((name) => name.includes(filter)) : all;
  if (selected.length === 0) {
    process.stderr.write(`no benchmark matches '${filter}'; known: ${all.join(", ") || "none"}\n`);
    return 2;
  }

  process.stdout.write(`${machineHeader()}\n`);
  const ca = await createCertificateAuthority("lab-mcp bench CA");
  // Outside the project tree, removed at the end; only the certificate goes to disk, never the key.
  const dir = await mkdtemp(join(tmpdir(), "lab-mcp-bench-"));
  try {
    const caFile = join(dir, "ca.pem");
    await writeFile(caFile, ca.certPem, { mode: 0o644 });
    const env = {
      ...process.env,
      NODE_EXTRA_CA_CERTS: caFile,
      BENCH_CA_CERT: ca.certPem,
      BENCH_CA_KEY: ca.keyPem,
    };
    const failed = [];
    for (const file of selected) {
      if (interrupted) break;
      process.stdout.write(`\n## ${file.slice(0, -SUFFIX.length)}\n\n`);
      const started = performance.now();
      const code = await runBenchmark(file, env);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      if (code !== 0) {
        failed.push(file);
        process.stderr.write(`${file} failed with exit code ${code} after ${seconds} s\n`);
      } else {
        process.stdout.write(`(${file} took ${seconds} s)\n`);
      }
    }
    if (interrupted) {
      process.stderr.write("\ninterrupted\n");
      return 130;
    }
    if (failed.length > 0) {
      process.stderr.write(
        `\n${failed.length} of ${selected.length} benchmarks failed: ${failed.join(", ")}\n`,
      );
      return 1;
    }
    return 0;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
