// registry/<bin>/server.json, the MCP Registry entries: one per server (labdata-mcp and protocols-mcp
// are distinct servers, each with its own name), valid under the registry's current schema, vendored in
// registry/server.schema.2025-12-11.json (the copy the registry's publisher validates with), and true to
// the package: they name the npm package, its version and a bin of it, every environment variable is a
// setting of the server it starts, the secrets marked.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv/dist/ajv.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { settingsOf } from "../../packages/lab-mcp/src/core/start/run.js";
import type { ServiceDefinition } from "../../packages/lab-mcp/src/core/start/service.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { ROOT } from "../support/clients.js";

const REGISTRY = join(ROOT, "registry");
const SCHEMA_FILE = join(REGISTRY, "server.schema.2025-12-11.json");
const SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
const schema = JSON.parse(readFileSync(SCHEMA_FILE, "utf8"));
const manifest = JSON.parse(readFileSync(join(ROOT, "packages", "lab-mcp", "package.json"), "utf8"));
const SERVICES: Record<string, ServiceDefinition<unknown>> = {
  "labdata-mcp": labdataService as unknown as ServiceDefinition<unknown>,
  "protocols-mcp": protocolsService as unknown as ServiceDefinition<unknown>,
};
const entries = readdirSync(REGISTRY, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => ({
    bin: entry.name,
    json: JSON.parse(readFileSync(join(REGISTRY, entry.name, "server.json"), "utf8")),
  }));

const ajv = new Ajv.default({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);

it("the vendored schema is the registry's 2025-12-11 one, byte for byte", () => {
  // modelcontextprotocol/registry internal/validators/schemas/2025-12-11.json at 1201cbd (2026-04-29).
  const sha256 = createHash("sha256").update(readFileSync(SCHEMA_FILE)).digest("hex");
  expect(sha256).toBe("578b5bb01866d060ff6a67734cf6b2f17a5da283a0877775c7913e4761a626e5");
  expect(schema.$id).toBe(SCHEMA_URL);
  expect(schema.$ref).toBe("#/definitions/ServerDetail");
});

it("there is one entry per server, each with its own name", () => {
  expect(entries.map((entry) => entry.bin).sort()).toEqual(Object.keys(SERVICES).sort());
  const names = entries.map((entry) => entry.json.name);
  expect(new Set(names).size).toBe(names.length);
});

describe.each(entries)("registry/$bin/server.json", ({ bin, json }) => {
  it("is valid under the 2025-12-11 schema and names it", () => {
    expect(validate(json) ? [] : validate.errors).toEqual([]);
    expect(json.$schema).toBe(SCHEMA_URL);
  });

  it("is named for its server in the package's namespace, with the package's version", () => {
    const namespace = String(manifest.mcpName).split("/")[0];
    expect(json.name).toBe(`${namespace}/${bin}`);
    expect(json.version).toBe(manifest.version);
    expect(json.packages).toHaveLength(1);
    const [entry] = json.packages;
    expect(entry.identifier).toBe(manifest.name);
    expect(entry.version).toBe(manifest.version);
    // npx lab-mcp@<version> <server>: the package's default bin starts the server named.
    expect(Object.keys(manifest.bin)).toContain(manifest.name);
    expect(entry.packageArguments[0].value).toBe(bin);
    expect(Object.keys(manifest.bin)).toContain(bin);
  });

  it("every environment variable is a setting of the server it starts, the secrets marked", () => {
    const settings = settingsOf(SERVICES[bin] as ServiceDefinition<unknown>);
    for (const variable of json.packages[0].environmentVariables) {
      const setting = settings.find((spec) => spec.env === variable.name);
      expect(setting, variable.name).toBeDefined();
      expect(Boolean(variable.isSecret), variable.name).toBe(setting?.kind === "secret");
    }
  });
});

it("an entry the registry would refuse fails the schema (the check can fail)", () => {
  const [first] = entries;
  const broken = { ...first?.json, description: "x".repeat(101), packages: [{ registryType: "npm" }] };
  expect(validate(broken)).toBe(false);
});
