// The product ships alone: the lab-mcp package's tarball holds the tool servers and nothing of the
// emulators, sandbox or demo, and its dependency list is exactly what its code imports.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/clients.js";

const PRODUCT = join(ROOT, "packages", "lab-mcp");
const EMULATORS = join(ROOT, "packages", "emulators");

interface PackedFile {
  path: string;
}

function packedFiles(): string[] {
  const out = execFileSync(
    "npm",
    ["pack", "--dry-run", "--json", "--ignore-scripts", "--workspace", "lab-mcp"],
    {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  const [pack] = JSON.parse(out) as { files: PackedFile[] }[];
  return (pack?.files ?? []).map((file) => file.path);
}

function manifest(dir: string): { dependencies?: Record<string, string>; bin?: Record<string, string> } {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every module a file imports, by name or by path. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^"']*?from\s*["']([^"']+)["']/g)];
  const sideEffects = [...text.matchAll(/(?:^|\n)\s*import\s*["']([^"']+)["']/g)];
  const dynamic = [...text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)];
  return [...specifiers, ...sideEffects, ...dynamic].map((match) => match[1] as string);
}

/** The modules a file imports by name ("zod", "@modelcontextprotocol/sdk/server/mcp.js"), not by path. */
function bareImports(file: string): string[] {
  return importsOf(file).filter((specifier) => !specifier.startsWith(".") && !specifier.startsWith("node:"));
}

/** "@scope/name/sub/path.js" -> "@scope/name"; "name/sub" -> "name". */
function packageOf(specifier: string): string {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
}

/** A view's page code (src/services/<id>/views/page/): bundled into the page at build time, not imported at run time. */
const isViewPage = (file: string) => /[\\/]views[\\/]page[\\/]/.test(file);

/** The pages the build makes of the views, dist/views/<service>/<name>.html, one per `<name>.view.ts`. */
function viewPages(): string[] {
  return sourceFiles(join(PRODUCT, "src"))
    .filter((file) => isViewPage(file) && file.endsWith(".view.ts"))
    .map((file) => {
      const service = relative(join(PRODUCT, "src", "services"), file).split(/[\\/]/)[0];
      return `dist/views/${service}/${file
        .split(/[\\/]/)
        .pop()
        ?.replace(/\.view\.ts$/, ".html")}`;
    })
    .sort();
}

function importedPackages(
  dir: string,
  pages: "without view pages" | "view pages only" = "without view pages",
): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(join(dir, "src")).filter(
    (path) => isViewPage(path) === (pages === "view pages only"),
  )) {
    for (const specifier of bareImports(file)) {
      if (builtinModules.includes(specifier)) continue;
      names.add(packageOf(specifier));
    }
  }
  return names;
}

/** Libraries only the emulators use: certificates, PDFs, signed ID tokens. */
// The libraries only the emulators need. (jose is both's: the emulators sign tokens with it, the product
// verifies a team's access tokens with it.)
const EMULATOR_LIBRARIES = ["pdfkit", "@peculiar/x509", "reflect-metadata"];

describe("the product package (packages/lab-mcp)", () => {
  const files = packedFiles();

  it("packs the built tool servers: their bins, bundled, and the chunks they load", () => {
    expect(files).toContain("package.json");
    for (const bin of Object.values(manifest(PRODUCT).bin ?? {})) expect(files).toContain(bin);
    expect(files.some((file) => file.startsWith("dist/bin/chunks/"))).toBe(true);
    // The bundle holds core and the services: their one-file-per-module copies stay out; beside it, the
    // views' pages, which the bins read through the package's own name (lab-mcp/views/...).
    expect(viewPages().length).toBeGreaterThan(0);
    expect(files.filter((file) => !file.startsWith("dist/bin/") && file.startsWith("dist/")).sort()).toEqual(
      viewPages(),
    );
  });

  it("packs each view as one self-contained page: its script and style inline, nothing fetched", () => {
    for (const page of viewPages()) {
      const html = readFileSync(join(PRODUCT, page), "utf8");
      expect(html, page).toMatch(
        /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-/,
      );
      expect(html, page).not.toMatch(/<(script|link|img|iframe)\b[^>]*\b(src|href)=/i);
      expect(html.match(/<script\b/g)?.length, page).toBe(1);
      // Small enough to serve at every render (bench/views-cost.bench.mjs prints the sizes).
      expect(Buffer.byteLength(html), page).toBeLessThan(320 * 1024);
    }
  });

  it("builds the views' pages only from the workspace's development libraries", () => {
    const root = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const used = [...importedPackages(PRODUCT, "view pages only")];
    expect(used).toContain("@modelcontextprotocol/ext-apps");
    expect(used.filter((name) => !(name in root.devDependencies))).toEqual([]);
  });

  it("packs every file its code imports by path, and imports by name only its dependencies", () => {
    const declared = new Set(Object.keys(manifest(PRODUCT).dependencies ?? {}));
    const missing: string[] = [];
    const undeclared: string[] = [];
    for (const file of files.filter((path) => path.endsWith(".js"))) {
      for (const specifier of importsOf(join(PRODUCT, file))) {
        if (specifier.startsWith(".")) {
          const target = relative(PRODUCT, join(PRODUCT, dirname(file), specifier));
          if (!files.includes(target)) missing.push(`${file} -> ${specifier}`);
        } else if (!specifier.startsWith("node:") && !builtinModules.includes(specifier)) {
          if (!declared.has(packageOf(specifier))) undeclared.push(`${file} -> ${specifier}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(undeclared).toEqual([]);
  });

  it("packs no emulator, sandbox or demo file, no sources, maps or tests", () => {
    const unwanted = files.filter(
      (file) =>
        /emulator|sandbox|demo|(^|\/)test\//i.test(file) ||
        file.endsWith(".ts") ||
        file.endsWith(".map") ||
        !(file.startsWith("dist/") || ["package.json", "README.md", "LICENSE"].includes(file)),
    );
    expect(unwanted).toEqual([]);
  });

  it("lists exactly the libraries its code imports, and none of the emulators' libraries", () => {
    const declared = Object.keys(manifest(PRODUCT).dependencies ?? {}).sort();
    expect(declared).toEqual([...importedPackages(PRODUCT)].sort());
    for (const library of EMULATOR_LIBRARIES) expect(declared).not.toContain(library);
  });

  it("imports nothing of the emulators package, by path or by name", () => {
    const crossing = sourceFiles(join(PRODUCT, "src")).filter((file) => {
      const text = readFileSync(file, "utf8");
      return /from\s+["'][^"']*(emulators|sandbox|demo)\//.test(text) || text.includes("@lab-mcp/emulators");
    });
    expect(crossing.map((file) => relative(ROOT, file))).toEqual([]);
  });
});

describe("the emulators package (packages/emulators)", () => {
  it("is private: it is test infrastructure, never published", () => {
    expect(JSON.parse(readFileSync(join(EMULATORS, "package.json"), "utf8")).private).toBe(true);
  });

  it("lists the libraries its code imports, and reaches the product only as a package (for its bins)", () => {
    const imported = importedPackages(EMULATORS);
    const declared = Object.keys(manifest(EMULATORS).dependencies ?? {});
    expect([...imported].filter((name) => !declared.includes(name))).toEqual([]);
    const byPath = sourceFiles(join(EMULATORS, "src")).filter((file) =>
      /from\s+["'](\.\.\/)+(lab-mcp|core|services)\//.test(readFileSync(file, "utf8")),
    );
    expect(byPath.map((file) => relative(ROOT, file))).toEqual([]);
  });
});
