// The product's version, as `--version` prints it and the servers announce it: read from the package's
// own package.json (three folders up from this file in src/ and in dist/), so there is one place to bump.
import { readFileSync } from "node:fs";

export const PRODUCT_VERSION: string = (() => {
  try {
    const manifest = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));
    return typeof manifest.version === "string" ? manifest.version : "unknown";
  } catch {
    return "unknown";
  }
})();
