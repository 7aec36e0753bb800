// A fresh clone as a new user has it, to run the README's npm scripts in: the repository's files (tracked,
// or new and not ignored, as they are in this work tree, so that a change not yet committed is what gets
// tried; never dist/ or node_modules/, which .gitignore keeps out) copied to a temporary
// folder, with a node_modules of links to this one's packages, except the workspaces' own links, which
// point at the copy's packages (so that `npm start` runs the copy's build, not this tree's).
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  symlinkSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT } from "./clients.js";

/** Packages of the workspace, linked by npm from node_modules to their folders. */
const WORKSPACE_LINKS: Record<string, string> = {
  "lab-mcp": "packages/lab-mcp",
  "@lab-mcp/emulators": "packages/emulators",
};

export function cleanCopy(prefix = "lab-mcp-clone-"): string {
  const copy = mkdtempSync(join(tmpdir(), prefix));
  const tracked = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file && existsSync(join(ROOT, file)) && !lstatSync(join(ROOT, file)).isDirectory());
  for (const file of tracked) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(copy, file));
  }
  linkModules(join(ROOT, "node_modules"), join(copy, "node_modules"), "");
  // A package's own node_modules (a dependency whose version differs from the root's).
  for (const pkg of Object.values(WORKSPACE_LINKS)) {
    const own = join(ROOT, pkg, "node_modules");
    if (existsSync(own)) symlinkSync(own, join(copy, pkg, "node_modules"));
  }
  return copy;
}

function linkModules(from: string, to: string, scope: string): void {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    const id = scope ? `${scope}/${name}` : name;
    const workspace = WORKSPACE_LINKS[id];
    if (workspace) {
      const copyRoot = scope ? join(to, "..", "..") : join(to, "..");
      symlinkSync(join(copyRoot, workspace), join(to, name));
    } else if (
      name.startsWith("@") &&
      Object.keys(WORKSPACE_LINKS).some((key) => key.startsWith(`${name}/`))
    ) {
      linkModules(join(from, name), join(to, name), name);
    } else {
      symlinkSync(join(from, name), join(to, name));
    }
  }
}

/**
 * The environment a user's shell gives `npm run …`: this run's, without what the test runner adds
 * (NODE_ENV=test, which silences some tools' output, VITEST_*, and npm's npm_* of `npm test`). The trust
 * store stays: the test run's NODE_EXTRA_CA_CERTS holds the machine's own (for npm's way to the registry).
 */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (name === "NODE_ENV" || name.startsWith("VITEST") || name.startsWith("npm_")) continue;
    if (name === "TEST" || name === "LAB_MCP_TEST_CA_DIR") continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}
