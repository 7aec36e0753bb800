// tsc drops the executable bit; bins must be runnable directly (npx, client configs).
import { chmodSync, readdirSync } from "node:fs";

for (const file of readdirSync("dist/bin")) {
  if (file.endsWith(".js")) chmodSync(`dist/bin/${file}`, 0o755);
}
