// The product as a lab installs it, without a clone: packed in a clean copy of the repository (its
// prepack builds it), installed from the tarball into an empty prefix (no workspace, no dev
// dependencies), each bin answering --version and --help, and each listing its tools over stdio to an
// SDK client that starts the installed bin as a Claude Desktop configuration would, against the
// emulators. Prints the installed size (bench/RESULTS.md records it).
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startExampleEmulator } from "../../packages/emulators/src/example/index.js";
import { startLabdataEmulator } from "../../packages/emulators/src/labdata/index.js";
import { startProtocolsEmulator } from "../../packages/emulators/src/protocols/index.js";
import { ROOT } from "../support/clients.js";
import { testCa } from "../support/emulator.js";

const BINS = ["labdata-mcp", "protocols-mcp", "example-mcp"] as const;
// A child that never exits would block this worker, where no test timeout can fire: each has a limit.
const NPM_LIMIT = 5 * 60_000;
const BIN_LIMIT = 30_000;
const work = mkdtempSync(join(tmpdir(), "lab-mcp-install-"));
const prefix = join(work, "prefix");
let tarball = "";
const closers: Array<() => Promise<void>> = [];
const envs: Record<string, Record<string, string>> = {};

/** The tracked and new (not ignored) files of the work tree: what a fresh clone of this commit holds. */
function cleanCopy(target: string): void {
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file && !file.startsWith("node_modules/"));
  for (const file of files) {
    const from = join(ROOT, file);
    try {
      if (!statSync(from).isFile()) continue;
    } catch {
      continue; // deleted in the work tree
    }
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(from, join(target, file));
  }
  // The dev tools (tsc) a clone gets from `npm ci`: the repository's own, linked rather than fetched again,
  // with each workspace's own node_modules (a version the root could not hoist, e.g. cookie 1 beside 0.7).
  symlinkSync(join(ROOT, "node_modules"), join(target, "node_modules"), "dir");
  for (const workspace of ["packages/lab-mcp", "packages/emulators"]) {
    const own = join(ROOT, workspace, "node_modules");
    if (existsSync(own)) symlinkSync(own, join(target, workspace, "node_modules"), "dir");
  }
}

function du(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += statSync(join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** What `du` reports: the blocks the files and folders take on disk. */
function onDisk(dir: string): number {
  let total = statSync(dir).blocks * 512;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() || entry.isDirectory())
      total += statSync(join(entry.parentPath, entry.name)).blocks * 512;
  }
  return total;
}

/** A figure quoted in the README agrees with the measured one: within 15 % (or 2 MB). */
function agrees(quotedMb: number, measuredBytes: number): boolean {
  const measuredMb = measuredBytes / 1024 / 1024;
  return Math.abs(quotedMb - measuredMb) <= Math.max(2, measuredMb * 0.15);
}

const installedBin = (name: string) => join(prefix, "node_modules", ".bin", name);

beforeAll(async () => {
  const clone = join(work, "clone");
  cleanCopy(clone);
  const out = execFileSync("npm", ["pack", "--workspace", "lab-mcp", "--json", "--pack-destination", work], {
    cwd: clone,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: NPM_LIMIT,
  });
  const [packed] = JSON.parse(out) as Array<{ filename: string }>;
  tarball = join(work, packed?.filename ?? "missing.tgz");
  mkdirSync(prefix);
  execFileSync("npm", ["install", "--prefix", prefix, "--omit=dev", "--no-audit", "--no-fund", tarball], {
    cwd: work,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: NPM_LIMIT,
  });

  const ca = testCa();
  const labdata = await startLabdataEmulator({ ca });
  const protocols = await startProtocolsEmulator({ ca });
  const example = await startExampleEmulator({ ca });
  closers.push(
    () => labdata.close(),
    () => protocols.close(),
    () => example.close(),
  );
  if (!labdata.demo || !protocols.demo) throw new Error("emulators without demo data");
  envs["labdata-mcp"] = { LABDATA_BASE_URL: labdata.demo.baseUrl, LABDATA_API_KEY: labdata.demo.user.apiKey };
  envs["protocols-mcp"] = {
    PROTOCOLS_BASE_URL: protocols.url,
    PROTOCOLS_ACCESS_TOKEN: protocols.demo.clientAccessToken,
  };
  envs["example-mcp"] = { EXAMPLE_BASE_URL: example.url, EXAMPLE_API_KEY: example.apiKey };
}, 600_000);

afterAll(async () => {
  for (const close of closers) await close();
  rmSync(work, { recursive: true, force: true });
});

describe("the packed product, installed into an empty prefix", () => {
  it("is complete and small: the licence and dist, no sources or maps; its size is printed", () => {
    const listing = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8", timeout: BIN_LIMIT }).split(
      "\n",
    );
    expect(listing).toContain("package/LICENSE");
    expect(listing).toContain("package/dist/bin/labdata-mcp.js");
    expect(listing.filter((file) => /\.ts$|\.map$/.test(file))).toEqual([]);
    const installed = du(join(prefix, "node_modules"));
    const packages = readdirSync(join(prefix, "node_modules"), { withFileTypes: true }).filter(
      (entry) => entry.isDirectory() && !entry.name.startsWith("."),
    ).length;
    console.log(
      `installed size: ${(installed / 1024 / 1024).toFixed(1)} MB in ${join(prefix, "node_modules")} ` +
        `(${packages} top-level entries; tarball ${(statSync(tarball).size / 1024).toFixed(0)} kB)`,
    );
    expect(installed).toBeLessThan(80 * 1024 * 1024);
    // The README quotes both figures; they must be what is measured here.
    const disk = onDisk(join(prefix, "node_modules"));
    console.log(`on disk: ${(disk / 1024 / 1024).toFixed(1)} MB`);
    const quoted = /about (\d+) MB on disk \((\d+) MB of files;/.exec(
      readFileSync(join(ROOT, "README.md"), "utf8"),
    );
    expect(quoted, "the README's installed size").not.toBeNull();
    expect(agrees(Number(quoted?.[1]), disk), `README: ${quoted?.[1]} MB on disk, measured ${disk}`).toBe(
      true,
    );
    expect(
      agrees(Number(quoted?.[2]), installed),
      `README: ${quoted?.[2]} MB of files, measured ${installed}`,
    ).toBe(true);
    const tarballKb = /writes `lab-mcp-[\d.]+\.tgz`, about (\d+) kB/.exec(
      readFileSync(join(ROOT, "README.md"), "utf8"),
    );
    const measuredKb = statSync(tarball).size / 1024;
    expect(
      Math.abs(Number(tarballKb?.[1]) - measuredKb),
      `README: ${tarballKb?.[1]} kB tarball`,
    ).toBeLessThan(Math.max(20, measuredKb * 0.15));
  });

  it.each(BINS)("%s answers --version and --help", (bin) => {
    const version = execFileSync(installedBin(bin), ["--version"], { encoding: "utf8", timeout: BIN_LIMIT });
    expect(version.trim()).toMatch(new RegExp(`^${bin} \\d+\\.\\d+\\.\\d+`));
    const help = execFileSync(installedBin(bin), ["--help"], { encoding: "utf8", timeout: BIN_LIMIT });
    expect(help).toContain("MCP_TRANSPORT");
  });

  it("the default bin starts a server by its name (npx -y lab-mcp labdata-mcp)", () => {
    const version = execFileSync(installedBin("lab-mcp"), ["labdata-mcp", "--version"], {
      encoding: "utf8",
      timeout: BIN_LIMIT,
    });
    expect(version.trim()).toMatch(/^labdata-mcp \d+\.\d+\.\d+/);
  });

  it.each(BINS)("%s lists its tools over stdio, started as a client configuration starts it", async (bin) => {
    // { "command": "<prefix>/node_modules/.bin/labdata-mcp", "env": { ... } } in claude_desktop_config.json
    const transport = new StdioClientTransport({
      command: installedBin(bin),
      env: { PATH: process.env.PATH ?? "", NODE_EXTRA_CA_CERTS: testCa().caFile, ...envs[bin] },
      stderr: "pipe",
    });
    const client = new Client({ name: "install-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      expect(tools.every((tool) => tool.name.startsWith(bin.replace("-mcp", "_")))).toBe(true);
      const first = await client.callTool({
        name: {
          "labdata-mcp": "labdata_get_current_user",
          "protocols-mcp": "protocols_get_profile",
          "example-mcp": "example_search_users",
        }[bin],
        arguments: bin === "example-mcp" ? { query: "chen" } : {},
      });
      expect(first.isError).toBeFalsy();
      // The views' pages come with the package: each page a tool links to reads from the installed copy.
      const views = tools.flatMap((tool) => {
        const uri = (tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
        return uri ? [uri] : [];
      });
      if (bin === "labdata-mcp") expect(views.length).toBeGreaterThan(0);
      for (const uri of new Set(views)) {
        const { contents } = await client.readResource({ uri });
        expect((contents[0] as { text?: string }).text).toMatch(/^<!doctype html>/);
      }
    } finally {
      await client.close();
    }
  });
});
