// The README and its docs/ pages. Their generated parts (the install lines, the tool and settings tables:
// scripts/readme-tables.mjs, run by `npm run docs` on the built servers) must be what the code renders,
// or this names the stale section and the command that fixes it. The README itself starts with the
// scientist and stays short: at most about 400 lines, a table of contents whose every entry leads to a
// heading, and every relative link leads to a file (or a heading of it) that exists.
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/clients.js";
import { type Finished, runToEnd } from "../support/processes.js";

const README = join(ROOT, "README.md");
const DOCS = readdirSync(join(ROOT, "docs"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => join(ROOT, "docs", name));
const PAGES = [README, ...DOCS];

/** `node scripts/readme-tables.mjs --check` on the pages; its exit code and stderr. Killed after 10 s. */
function check(pages: string[] = PAGES): Promise<Finished> {
  const script = join(ROOT, "scripts", "readme-tables.mjs");
  const args = [script, "--check", ...pages.flatMap((page) => ["--file", page])];
  return runToEnd(process.execPath, args, { ...process.env } as Record<string, string>, 10_000);
}

/** The pages, the one holding `from` replaced by a copy with `change` applied, in a fresh folder. */
function changedCopy(from: string | RegExp, change: (text: string) => string): string[] {
  const page = PAGES.find((candidate) => {
    const text = readFileSync(candidate, "utf8");
    return typeof from === "string" ? text.includes(from) : from.test(text);
  });
  if (!page) throw new Error(`no page holds ${from}`);
  const text = readFileSync(page, "utf8");
  const changed = change(text);
  expect(changed).not.toBe(text);
  const path = join(mkdtempSync(join(tmpdir(), "lab-mcp-readme-")), "page.md");
  writeFileSync(path, changed);
  return PAGES.map((candidate) => (candidate === page ? path : candidate));
}

describe("the generated parts of the README and docs/", () => {
  it("are what the code renders", async () => {
    const { code, stderr } = await check();
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
    const { code, stderr } = await check(changedCopy(from, (text) => text.replace(from, to)));
    expect(code).toBe(1);
    expect(stderr).toContain(`the section <!-- generated:${section} --> is stale`);
    expect(stderr).toContain("Run 'npm run docs'");
    expect(stderr.split("stale")).toHaveLength(2);
  });

  it("a server's section missing from the README fails, naming the markers to add", async () => {
    const { code, stderr } = await check(
      changedCopy(/<!-- generated:tools example_mcp -->/, (text) =>
        text.replace(/<!-- generated:tools example_mcp -->[\s\S]*?<!-- \/generated -->\n/, ""),
      ),
    );
    expect(code).toBe(1);
    expect(stderr).toContain("there is no section <!-- generated:tools example_mcp -->");
    expect(stderr).toContain("Run 'npm run docs'");
  });
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, "")
    .replaceAll(" ", "-");

/** The anchors of a page's headings (outside code blocks). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (heading) anchors.add(anchorOf(heading[1] as string));
  }
  return anchors;
}

describe("README.md", () => {
  const text = readFileSync(README, "utf8");
  const lines = text.split("\n");

  it("is at most about 400 lines", () => {
    expect(lines.length).toBeLessThanOrEqual(420);
  });

  it("starts with what each server lets an agent do, with example questions, before any reference", () => {
    const firstScreen = lines.slice(0, 40).join("\n");
    expect(firstScreen).toMatch(/`labdata-mcp`[^\n]*Benchling/);
    expect(firstScreen).toMatch(/`protocols-mcp`[^\n]*protocols\.io/);
    expect(firstScreen.match(/^- "/gm)?.length).toBeGreaterThanOrEqual(5);
    // The install lines, the sandbox and the test command follow the contents, before the reference.
    const order = [
      "## Contents",
      "## Install in your client",
      "npm ci && npm start",
      "npm test",
      "## More documentation",
    ];
    const at = order.map((marker) => text.indexOf(marker));
    expect(at.every((index) => index > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it("has a table of contents whose every entry leads to one of its headings", () => {
    const contents = text.slice(
      text.indexOf("## Contents"),
      text.indexOf("\n## ", text.indexOf("## Contents") + 1),
    );
    const entries = [...contents.matchAll(/\]\(#([^)]+)\)/g)].map((match) => match[1] as string);
    expect(entries.length).toBeGreaterThanOrEqual(6);
    const anchors = anchorsOf(text);
    for (const entry of entries) expect(anchors, entry).toContain(entry);
    // Every top-level section is in it.
    for (const [, heading] of text.matchAll(/^## (.+)$/gm)) {
      if (heading === "Contents" || heading === "License") continue;
      expect(entries, heading).toContain(anchorOf(heading as string));
    }
  });

  it.each(PAGES.map((page) => [relative(ROOT, page), page]))(
    "%s: every relative link leads to a file, and a heading of it when it names one",
    (_, page) => {
      // Inline code (e.g. a link's form `[text](url)` written as an example) is not a link.
      const body = readFileSync(page, "utf8").replace(/`[^`\n]*`/g, "");
      for (const [, target] of body.matchAll(/\]\(((?!https?:|mailto:|vscode:|cursor:)[^)\s]+)\)/g)) {
        const [path = "", anchor] = (target as string).split("#");
        const file = path ? join(dirname(page), path) : page;
        expect(existsSync(file), `${target} in ${relative(ROOT, page)}`).toBe(true);
        if (anchor && file.endsWith(".md")) {
          expect(anchorsOf(readFileSync(file, "utf8")), `${target} in ${relative(ROOT, page)}`).toContain(
            anchor,
          );
        }
      }
    },
  );
});
