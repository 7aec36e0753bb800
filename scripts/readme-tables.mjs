// The generated parts of README.md and docs/*.md (the install lines, the tool and settings tables),
// rendered from the built servers (run `npm run docs`, which builds first): each sits between
// `<!-- generated:<kind> <name> -->` and `<!-- /generated -->`, in exactly one of those files, and is
// replaced whole. `--check` changes nothing and exits 1 naming every stale or missing section
// (test/docs/readme.test.ts runs it); `--file <path>` (repeated) works on other files instead.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";

const ROOT = join(import.meta.dirname, "..");
const FIX = "npm run docs";

const { values: options } = parseArgs({
  options: { check: { type: "boolean" }, file: { type: "string", multiple: true } },
});
const DOCS = join(ROOT, "docs");
const files = options.file ?? [
  join(ROOT, "README.md"),
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => join(DOCS, name)),
];

const { coreSettings } = await import(
  join(ROOT, "packages", "lab-mcp", "dist", "core", "start", "config.js")
);
const { installTable } = await import(join(ROOT, "scripts", "client-install.mjs"));
const { describeSettings } = await import(
  join(ROOT, "packages", "lab-mcp", "dist", "core", "start", "setting.js")
);
const { defaultToolsetsOf } = await import(
  join(ROOT, "packages", "lab-mcp", "dist", "core", "server", "toolsets.js")
);

/** Every service definition exported by packages/lab-mcp/dist/services/<name>/index.js, in folder order. */
async function servicesOf() {
  const servicesDir = join(ROOT, "packages", "lab-mcp", "dist", "services");
  const services = [];
  for (const folder of readdirSync(servicesDir).sort()) {
    const module = await import(join(servicesDir, folder, "index.js"));
    for (const value of Object.values(module)) {
      if (value && typeof value === "object" && "serverName" in value && Array.isArray(value.tools))
        services.push(value);
    }
  }
  return services;
}

const cell = (text) => String(text).replaceAll("|", "\\|").replaceAll("\n", " ");
const code = (text) => `\`${text}\``;
/** Prose for a cell: `<port>` would be read as an HTML tag and vanish. */
const prose = (text) => String(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

function table(header, rows) {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`),
  ].join("\n");
}

/** Whether a tool is served without MCP_TOOLSETS (a destructive one also needs MCP_ALLOW_DESTRUCTIVE). */
function byDefault(service, tool) {
  return defaultToolsetsOf(service).includes(tool.toolset ?? service.id) ? "yes" : "no";
}

function toolsTable(service) {
  return table(
    ["tool", "title", "toolset", "default", "readOnly", "destructive", "idempotent", "openWorld"],
    service.tools.map((tool) => [
      code(tool.name),
      prose(tool.title),
      tool.toolset ?? service.id,
      byDefault(service, tool),
      tool.annotations.readOnlyHint,
      tool.annotations.destructiveHint,
      tool.annotations.idempotentHint,
      tool.annotations.openWorldHint,
    ]),
  );
}

function settingsTable(settings) {
  return table(
    ["setting", "flag", "default", "meaning"],
    describeSettings(settings).map((spec) => [
      `${code(spec.env)}${spec.kind === "secret" ? " (secret)" : ""}`,
      code(spec.flag),
      spec.required ? "required" : spec.default === undefined ? "" : code(spec.default),
      prose(spec.help),
    ]),
  );
}

/** Section key ("tools labdata_mcp") -> its rendered markdown. */
async function renderSections() {
  const sections = new Map([
    ["install clients", installTable()],
    ["settings core", settingsTable(coreSettings())],
  ]);
  for (const service of await servicesOf()) {
    sections.set(`tools ${service.serverName}`, toolsTable(service));
    sections.set(`settings ${service.serverName}`, settingsTable(service.settings));
  }
  return sections;
}

const MARKED = /(<!-- generated:([a-z]+ [a-z0-9_]+) -->\n)([\s\S]*?)(<!-- \/generated -->)/g;

const sections = await renderSections();
const stale = [];
const unknown = [];
/** Section key -> the file it sits in. */
const seen = new Map();
const twice = [];
const updates = [];
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const updated = text.replace(MARKED, (whole, open, key, body, close) => {
    if (seen.has(key)) twice.push(`${key} (in ${seen.get(key)} and ${file})`);
    seen.set(key, file);
    const rendered = sections.get(key);
    if (rendered === undefined) {
      unknown.push(`${key} (in ${file})`);
      return whole;
    }
    const fresh = `\n${rendered}\n\n`;
    if (body !== fresh) stale.push(`${key} (in ${file})`);
    return `${open}${fresh}${close}`;
  });
  if (updated !== text) updates.push([file, updated]);
}
const missing = [...sections.keys()].filter((key) => !seen.has(key));
const where = files.length === 1 ? files[0] : "README.md and docs/";

if (options.check) {
  const problems = [
    ...stale.map(
      (key) =>
        `the section <!-- generated:${key.replace(/ \(in .*/, "")} --> is stale${key.slice(key.indexOf(" (in"))}`,
    ),
    ...missing.map((key) => `there is no section <!-- generated:${key} --> ... <!-- /generated -->`),
    ...unknown.map((key) => `nothing renders the section <!-- generated:${key} -->`),
    ...twice.map((key) => `the section <!-- generated:${key} --> is there twice`),
  ];
  if (problems.length > 0) {
    process.stderr.write(`${where}: ${problems.join("; ")}. Run '${FIX}' to regenerate it.\n`);
    process.exit(1);
  }
} else {
  if (unknown.length > 0 || twice.length > 0) {
    const named = [...unknown.map((key) => `nothing renders ${key}`), ...twice.map((key) => `${key} twice`)];
    process.stderr.write(`${where}: ${named.join("; ")}; remove those markers.\n`);
    process.exit(1);
  }
  if (missing.length > 0) {
    process.stderr.write(
      `${where}: add the markers <!-- generated:${missing[0]} --> and <!-- /generated --> where the table goes` +
        `${missing.length > 1 ? ` (and for ${missing.slice(1).join(", ")})` : ""}.\n`,
    );
    process.exit(1);
  }
  for (const [file, updated] of updates) writeFileSync(file, updated);
  process.stdout.write(`${where}: ${stale.length} section(s) regenerated.\n`);
}
