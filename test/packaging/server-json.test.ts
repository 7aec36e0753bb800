// packages/lab-mcp/server.json, the MCP Registry entry: valid under the registry's published schema's
// rules (restated below from https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json,
// the parts an npm stdio entry uses), and true to the package: its name is the package's mcpName, it
// names the npm package, its version and its bins, and every environment variable is a setting of the
// server it starts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv from "ajv/dist/ajv.js";
import addFormats from "ajv-formats";
import { expect, it } from "vitest";
import { settingsOf } from "../../packages/lab-mcp/src/core/start/run.js";
import type { ServiceDefinition } from "../../packages/lab-mcp/src/core/start/service.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";
import { ROOT } from "../support/clients.js";

const PRODUCT = join(ROOT, "packages", "lab-mcp");
const serverJson = JSON.parse(readFileSync(join(PRODUCT, "server.json"), "utf8"));
const manifest = JSON.parse(readFileSync(join(PRODUCT, "package.json"), "utf8"));

const keyValueInput = {
  type: "object",
  required: ["name"],
  properties: {
    name: { type: "string" },
    description: { type: "string" },
    isRequired: { type: "boolean" },
    isSecret: { type: "boolean" },
    default: { type: "string" },
    value: { type: "string" },
    format: { enum: ["string", "number", "boolean", "filepath"] },
  },
};
const argument = {
  type: "object",
  required: ["type"],
  properties: {
    type: { enum: ["positional", "named"] },
    value: { type: "string" },
    valueHint: { type: "string" },
  },
  anyOf: [{ required: ["valueHint"] }, { required: ["value"] }, { properties: { type: { const: "named" } } }],
};
/** The registry's rules for a server.json with npm packages over stdio (ServerDetail, RegistryPackage). */
const SCHEMA = {
  type: "object",
  required: ["name", "description", "version"],
  properties: {
    $schema: { type: "string", format: "uri" },
    name: { type: "string", minLength: 3, maxLength: 200, pattern: "^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$" },
    title: { type: "string", minLength: 1, maxLength: 100 },
    description: { type: "string", minLength: 1, maxLength: 100 },
    version: { type: "string", maxLength: 255 },
    websiteUrl: { type: "string", format: "uri" },
    repository: {
      type: "object",
      required: ["url", "source"],
      properties: {
        url: { type: "string", format: "uri" },
        source: { type: "string" },
        subfolder: { type: "string" },
      },
    },
    packages: {
      type: "array",
      items: {
        type: "object",
        required: ["registryType", "transport", "identifier", "version"],
        properties: {
          registryType: { enum: ["npm", "pypi", "nuget"] },
          registryBaseUrl: { type: "string", format: "uri" },
          identifier: { type: "string", minLength: 1 },
          version: { type: "string", minLength: 1, not: { const: "latest" } },
          runtimeHint: { type: "string" },
          transport: { type: "object", required: ["type"], properties: { type: { enum: ["stdio"] } } },
          packageArguments: { type: "array", items: argument },
          runtimeArguments: { type: "array", items: argument },
          environmentVariables: { type: "array", items: keyValueInput },
        },
      },
    },
  },
};

it("is valid under the registry's schema", () => {
  const ajv = new Ajv.default({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const validate = ajv.compile(SCHEMA);
  expect(validate(serverJson) ? [] : validate.errors).toEqual([]);
  expect(serverJson.$schema).toBe(
    "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
  );
});

it("names the package, its version, its mcpName and its bins", () => {
  expect(serverJson.name).toBe(manifest.mcpName);
  expect(serverJson.version).toBe(manifest.version);
  for (const entry of serverJson.packages) {
    expect(entry.identifier).toBe(manifest.name);
    expect(entry.version).toBe(manifest.version);
    // npx lab-mcp@<version> <server>: the package's default bin starts the server named.
    expect(Object.keys(manifest.bin)).toContain(manifest.name);
    expect(Object.keys(manifest.bin)).toContain(entry.packageArguments[0].value);
  }
});

it("every environment variable is a setting of the server it starts, the secrets marked", () => {
  const services: Record<string, ServiceDefinition<unknown>> = {
    "labdata-mcp": labdataService as unknown as ServiceDefinition<unknown>,
    "protocols-mcp": protocolsService as unknown as ServiceDefinition<unknown>,
  };
  for (const entry of serverJson.packages) {
    const settings = settingsOf(services[entry.packageArguments[0].value] as ServiceDefinition<unknown>);
    for (const variable of entry.environmentVariables) {
      const setting = settings.find((spec) => spec.env === variable.name);
      expect(setting, variable.name).toBeDefined();
      expect(Boolean(variable.isSecret), variable.name).toBe(setting?.kind === "secret");
    }
  }
});
