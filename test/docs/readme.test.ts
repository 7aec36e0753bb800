// README.md's tool and settings tables are generated from the code (scripts/readme-tables.mjs, run by
// `npm run docs` on the built servers): this fails when the README differs from what the code renders,
// naming the stale section and the command that fixes it.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/clients.js";

const README = join(ROOT, "README.md");

/** `node scripts/readme-tables.mjs --check` on a README; its exit code and stderr. Killed after 10 s. */
function check(readme: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    [join(ROOT, "scripts", "readme-tables.mjs"), "--check", "--readme", readme],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`still running after 10 s; stderr: ${stderr}`));
    }, 10_000);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

/** A copy of README.md with `change` applied, in a fresh folder. */
function changedCopy(change: (text: string) => string): string {
  const text = readFileSync(README, "utf8");
  const changed = change(text);
  expect(changed).not.toBe(text);
  const path = join(mkdtempSync(join(tmpdir(), "lab-mcp-readme-")), "README.md");
  writeFileSync(path, changed);
  return path;
}

describe("README.md's generated tables", () => {
  it("are what the code renders", async () => {
    const { code, stderr } = await check(README);
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it.each([
    [
      "tools labdata_mcp",
      "| `labdata_create_dna_sequence` | Create DNA Sequence | writes | no | false |",
      "| `labdata_create_dna_sequence` | Create DNA Sequence | writes | yes | false |",
    ],
    [
      "settings protocols_mcp",
      "| `PROTOCOLS_MAX_PDF_BYTES` | `--max-pdf-bytes` | `104857600` |",
      "| `PROTOCOLS_MAX_PDF_BYTES` | `--max-pdf-bytes` | `1` |",
    ],
    ["settings core", "| `MCP_PORT` | `--port` | `3000` |", "| `MCP_PORT` | `--port` | `3001` |"],
  ])("a hand edit to the %s section fails, naming it and the fix", async (section, from, to) => {
    const { code, stderr } = await check(changedCopy((text) => text.replace(from, to)));
    expect(code).toBe(1);
    expect(stderr).toContain(`the section <!-- generated:${section} --> is stale`);
    expect(stderr).toContain("Run 'npm run docs'");
    expect(stderr.split("stale")).toHaveLength(2);
  });

  it("a server's section missing from the README fails, naming the markers to add", async () => {
    const { code, stderr } = await check(
      changedCopy((text) =>
        text.replace(/<!-- generated:tools example_mcp -->[\s\S]*?<!-- \/generated -->\n/, ""),
      ),
    );
    expect(code).toBe(1);
    expect(stderr).toContain("there is no section <!-- generated:tools example_mcp -->");
    expect(stderr).toContain("Run 'npm run docs'");
  });
});
