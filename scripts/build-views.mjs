// The views (MCP Apps pages) of each service, built for the browser: every `views/page/<name>.view.ts`
// of a service bundled with its imports (the extension's App among them) and minified, then inlined
// with the service's `views/page/style.css` into one self-contained HTML page, dist/views/<service>/
// <name>.html. Its content security policy allows that one script and that one style by their hashes
// and nothing else: no network, no other script, no frame, no form. Run from the product's folder.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "rolldown";

const OUT = "dist/views";
const hash = (text) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** Text that cannot end the inline <script> or open a comment inside it. */
const inlineScript = (code) => code.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");

function page(title, script, style) {
  const policy = [
    "default-src 'none'",
    `script-src ${hash(script)}`,
    `style-src ${hash(style)}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title}</title>`,
    `<style>${style}</style>`,
    "</head>",
    "<body>",
    '<main id="view"></main>',
    `<script type="module">${script}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

rmSync(OUT, { recursive: true, force: true });
for (const service of readdirSync("src/services")) {
  const dir = join("src/services", service, "views", "page");
  if (!existsSync(dir)) continue;
  const style = readFileSync(join(dir, "style.css"), "utf8").trim();
  mkdirSync(join(OUT, service), { recursive: true });
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".view.ts"))) {
    const name = file.slice(0, -".view.ts".length);
    const bundle = await build({
      input: join(dir, file),
      platform: "browser",
      write: false,
      logLevel: "warn",
      output: { format: "esm", minify: true },
    });
    // One page, one script: a chunk split off (a dynamic import) could not be loaded by the page.
    if (bundle.output.length !== 1)
      throw new Error(`${file}: bundled into ${bundle.output.length} files, not one`);
    const script = inlineScript(bundle.output[0].code.trim());
    writeFileSync(join(OUT, service, `${name}.html`), page(`${service} ${name}`, script, style));
  }
}
