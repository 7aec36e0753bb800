// tsc drops the executable bit; bins must be runnable directly (npx, client configs).
// Usage: node chmod-bins.mjs <dir>, run by each package's build in its own folder.
import { chmodSync, readdirSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2] ?? "dist/bin";
for (const file of readdirSync(dir)) {
  if (file.endsWith(".js")) chmodSync(join(dir, file), 0o755);
}
