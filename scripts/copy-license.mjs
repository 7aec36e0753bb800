// The licence travels with the product: npm packs a LICENSE at the package's root, and the one of the
// repository is at its root. Run by the product's prepack, in its own folder; the copy is not tracked.
import { copyFileSync } from "node:fs";

copyFileSync(new URL("../LICENSE", import.meta.url), "LICENSE");
