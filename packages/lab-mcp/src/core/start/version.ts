// The product's version, as `--version` prints it and the servers announce it: read from the package's
// own package.json, so there is one place to bump: the nearest one named lab-mcp up from this code, which
// is bundled into dist/bin/ or dist/bin/chunks/ and compiled into dist/core/start/ (src/ in tests).
import { readFileSync } from "node:fs";

const PACKAGE_NAME = "lab-mcp";

function readManifest(url: URL): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(url, "utf8"));
  } catch {
    return undefined;
  }
}

export const PRODUCT_VERSION: string = (() => {
  for (const up of ["../package.json", "../../package.json", "../../../package.json"]) {
    const manifest = readManifest(new URL(up, import.meta.url));
    if (manifest?.name === PACKAGE_NAME)
      return typeof manifest.version === "string" ? manifest.version : "unknown";
  }
  return "unknown";
})();
