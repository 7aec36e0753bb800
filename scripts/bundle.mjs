// npm run bundle: MCP Bundles (.mcpb, the one-click install of Claude Desktop) for labdata-mcp and
// protocols-mcp, built with the official @anthropic-ai/mcpb CLI. Each bundle holds the packed product
// installed without dev dependencies (server/node_modules), and a manifest that asks the user for the
// address and the credentials (secrets marked sensitive) and passes them to the bin as its settings,
// with the optional settings a lab needs (writes and toolsets, the destructive gate, a proxy, an extra CA
// file). The manifest lists the tools the bundled server itself lists with the form's defaults.
// Usage: node scripts/bundle.mjs [output-dir] (default: bundle/); prints the bundles' paths.
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const root = resolve(import.meta.dirname, "..");
const out = resolve(process.argv[2] ?? join(root, "bundle"));
const product = JSON.parse(readFileSync(join(root, "packages/lab-mcp/package.json"), "utf8"));
const mcpb = join(root, "node_modules/.bin/mcpb");
const run = (command, args, cwd = root) =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });

/** The manifest's placeholder for what the user typed in the bundle's form: ${user_config.<key>}. */
const asked = (key) => `$\{user_config.${key}}`;

/**
 * What every bundle may also be told, each optional with a default (an optional field without one
 * would reach the server as its literal placeholder), and the setting each answer becomes.
 */
const LAB_SETTINGS = {
  user_config: {
    toolsets: {
      type: "string",
      title: "Tools offered",
      description:
        "'default': every read, nothing that writes. 'default,writes' also lets the agent create and edit (sequences, notebook entries, protocol drafts). Or toolset names, comma-separated (see the README).",
      default: "default",
      required: false,
    },
    allow_destructive: {
      type: "boolean",
      title: "Allow archiving and replacing",
      description: "Offer the writes that archive or replace data (with 'writes' in Tools offered)",
      default: false,
      required: false,
    },
    https_proxy: {
      type: "string",
      title: "HTTPS proxy",
      description: "Your network's proxy, e.g. http://proxy.example:3128 (empty: none)",
      default: "",
      required: false,
    },
    ca_file: {
      type: "file",
      title: "Extra CA certificates",
      description: "A PEM file of your company's CA, when its network inspects HTTPS (empty: none)",
      default: "",
      required: false,
    },
  },
  env: {
    MCP_TOOLSETS: asked("toolsets"),
    MCP_ALLOW_DESTRUCTIVE: asked("allow_destructive"),
    HTTPS_PROXY: asked("https_proxy"),
    NODE_EXTRA_CA_CERTS: asked("ca_file"),
  },
};

/** What each bundle asks the user for, and the setting each answer becomes. */
const BUNDLES = {
  "labdata-mcp": {
    // Answers that start the server to list its tools (tools/list asks nothing of the tenant).
    placeholders: { base_url: "https://tenant.invalid", api_key: "placeholder" },
    display_name: "Lab data platform (Benchling API v2)",
    description:
      "DNA sequences, notebook entries, assay results, workflows, registry and inventory of your lab data platform tenant.",
    user_config: {
      base_url: {
        type: "string",
        title: "Tenant address",
        description: "Your tenant's address, e.g. https://acme.benchling.com (with or without /api/v2)",
        required: true,
      },
      api_key: {
        type: "string",
        title: "API key",
        description: "Your API key (Benchling: your avatar > Settings > API Key > Generate API key)",
        sensitive: true,
        required: true,
      },
    },
    env: { LABDATA_BASE_URL: asked("base_url"), LABDATA_API_KEY: asked("api_key") },
  },
  "protocols-mcp": {
    placeholders: { access_token: "placeholder" },
    display_name: "Protocol repository (protocols.io)",
    description:
      "Search, read and write protocols on protocols.io: steps, materials, versions, workspaces and PDFs.",
    user_config: {
      base_url: {
        type: "string",
        title: "Repository address",
        description: "The repository's address, e.g. https://www.protocols.io (with or without /api/v3)",
        default: "https://www.protocols.io",
        required: true,
      },
      access_token: {
        type: "string",
        title: "Client access token",
        description: "Your application's client access token (protocols.io: Developer > Your applications)",
        sensitive: true,
        required: true,
      },
    },
    env: {
      PROTOCOLS_BASE_URL: asked("base_url"),
      PROTOCOLS_ACCESS_TOKEN: asked("access_token"),
    },
  },
};

/** The form's defaults, field by field. */
const defaultsOf = (fields) =>
  Object.fromEntries(
    Object.entries(fields).flatMap(([key, field]) =>
      field.default === undefined ? [] : [[key, field.default]],
    ),
  );

/**
 * The tools the bundled server lists when started as Claude Desktop starts it (mcpb's own substitution),
 * with the form's defaults and placeholder answers: what a user who changes nothing gets.
 */
async function listedTools(manifest, stage, answers) {
  const config = await getMcpConfigForManifest({
    manifest,
    extensionPath: stage,
    systemDirs: {},
    // A required field with a default counts as answered only when given, as in the form.
    userConfig: { ...defaultsOf(manifest.user_config), ...answers },
    pathSeparator: "/",
  });
  if (!config) throw new Error(`${manifest.name}: mcpb made no server configuration`);
  const transport = new StdioClientTransport({
    command: config.command === "node" ? process.execPath : config.command,
    args: config.args,
    env: { PATH: process.env.PATH ?? "", ...config.env },
    stderr: "ignore",
  });
  const client = new Client({ name: "lab-mcp-bundle", version: product.version });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    return tools.map((tool) => ({ name: tool.name, description: tool.description ?? "" }));
  } finally {
    await client.close();
  }
}

const work = mkdtempSync(join(tmpdir(), "lab-mcp-bundle-"));
try {
  // The product as npm would publish it, installed as a user would install it. Its prepack (the build)
  // runs first on its own, its output sent to stderr: run inside `npm pack`, whatever the build prints
  // (rolldown lists its files unless NODE_ENV=test) would land in stdout, mixed into pack's report.
  // The tarball is then the one file pack leaves in an empty folder, so no report is parsed at all.
  execFileSync("npm", ["run", "prepack", "--workspace", "lab-mcp"], {
    cwd: root,
    stdio: ["ignore", process.stderr, "inherit"],
  });
  const packs = join(work, "pack");
  mkdirSync(packs);
  run("npm", ["pack", "--workspace", "lab-mcp", "--ignore-scripts", "--pack-destination", packs]);
  const tarballs = readdirSync(packs).filter((name) => name.endsWith(".tgz"));
  if (tarballs.length !== 1) throw new Error(`npm pack left ${tarballs.length} tarballs in ${packs}`);
  const tarball = join(packs, tarballs[0]);
  mkdirSync(out, { recursive: true });
  for (const [bin, spec] of Object.entries(BUNDLES)) {
    const stage = join(work, bin);
    mkdirSync(join(stage, "server"), { recursive: true });
    run("npm", [
      "install",
      "--prefix",
      join(stage, "server"),
      "--omit=dev",
      "--no-audit",
      "--no-fund",
      tarball,
    ]);
    const entry = `server/node_modules/lab-mcp/dist/bin/${bin}.js`;
    const manifest = {
      manifest_version: "0.3",
      name: bin,
      display_name: spec.display_name,
      version: product.version,
      description: spec.description,
      author: { name: "lab-mcp maintainers" },
      repository: { type: "git", url: product.repository.url.replace(/^git\+/, "") },
      license: product.license,
      keywords: product.keywords,
      server: {
        type: "node",
        entry_point: entry,
        mcp_config: {
          command: "node",
          args: [`\${__dirname}/${entry}`],
          env: { ...spec.env, ...LAB_SETTINGS.env },
        },
      },
      compatibility: { platforms: ["darwin", "win32", "linux"], runtimes: { node: product.engines.node } },
      user_config: { ...spec.user_config, ...LAB_SETTINGS.user_config },
    };
    manifest.tools = await listedTools(manifest, stage, spec.placeholders);
    writeFileSync(join(stage, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    copyFileSync(join(root, "LICENSE"), join(stage, "LICENSE"));
    run(mcpb, ["validate", join(stage, "manifest.json")]);
    const file = join(out, `${bin}-${product.version}.mcpb`);
    run(mcpb, ["pack", stage, file]);
    console.log(file);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
