// A merge left half done must not ship: no committed file (git ls-files) holds a conflict marker line.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../support/clients.js";

const MARKER = /^(<{7}|>{7})(?: |$)|^={7}$/m;

it("no tracked file holds a merge-conflict marker", () => {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  const marked: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(join(ROOT, file), "utf8");
    } catch {
      continue; // listed but gone from the work tree (a deletion not yet committed)
    }
    const match = MARKER.exec(text);
    if (match) marked.push(`${file}:${text.slice(0, match.index).split("\n").length}`);
  }
  expect(files.length).toBeGreaterThan(100);
  expect(marked).toEqual([]);
});
