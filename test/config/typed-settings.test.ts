// Settings are declared once per server as a z.object of setting.* builders; the values' type is
// inferred from it, so a misspelt setting name fails `npm run typecheck` (the @ts-expect-error lines
// below are that proof: tsc fails if the name ever compiles). At run time: typed values, defaults,
// and declarations the argv parser and --help can rely on.
import { describe, expect, it } from "vitest";
import { coreSettings, loadConfig } from "../../packages/lab-mcp/src/core/start/config.js";
import { settingsOf } from "../../packages/lab-mcp/src/core/start/run.js";
import { describeSettings } from "../../packages/lab-mcp/src/core/start/setting.js";
import { exampleService } from "../../packages/lab-mcp/src/services/example/index.js";
import { labdataService } from "../../packages/lab-mcp/src/services/labdata/index.js";
import { LABDATA_SETTINGS } from "../../packages/lab-mcp/src/services/labdata/settings.js";
import { protocolsService } from "../../packages/lab-mcp/src/services/protocols/index.js";

describe("typed settings", () => {
  it("yields typed values: parsed numbers and booleans, defaults, and undefined for what is not set", () => {
    const loaded = loadConfig(coreSettings(), LABDATA_SETTINGS, ["--port", "8080", "--read-only"], {
      LABDATA_BASE_URL: "https://acme.labdata.example",
      LABDATA_API_KEY: " key ",
    });
    if (loaded.help) throw new Error("unexpected --help");
    const { values } = loaded;
    const port: number = values.MCP_PORT;
    const readOnly: boolean = values.MCP_READ_ONLY;
    const transport: "stdio" | "http" = values.MCP_TRANSPORT;
    const baseUrl: string = values.LABDATA_BASE_URL;
    const apiKey: string | undefined = values.LABDATA_API_KEY;
    expect({ port, readOnly, transport, baseUrl, apiKey }).toEqual({
      port: 8080,
      readOnly: true,
      transport: "stdio",
      baseUrl: "https://acme.labdata.example",
      apiKey: "key",
    });
    expect(values.MCP_REQUEST_TIMEOUT).toBe(30);
    expect(values.LABDATA_CLIENT_ID).toBeUndefined();
    // @ts-expect-error a misspelt setting name does not compile
    expect(values.LABDATA_BASE_URLL).toBeUndefined();
    // @ts-expect-error nor does another server's setting
    expect(values.PROTOCOLS_BASE_URL).toBeUndefined();
    // What the service is built from is the same type.
    const forService: Parameters<typeof labdataService.createService>[0] = values;
    // @ts-expect-error a misspelt setting name does not compile in a service either
    expect(forService.LABDATA_API_KY).toBeUndefined();
  });

  it.each([
    ["example_mcp", settingsOf(exampleService)],
    ["labdata_mcp", settingsOf(labdataService)],
    ["protocols_mcp", settingsOf(protocolsService)],
  ])("%s: every setting has help, and no two share a name or a flag", (_name, specs) => {
    expect(specs.length).toBeGreaterThan(10);
    for (const spec of specs) expect(spec.help.length, spec.env).toBeGreaterThan(10);
    expect(new Set(specs.map((spec) => spec.env)).size).toBe(specs.length);
    expect(new Set(specs.map((spec) => spec.flag)).size).toBe(specs.length);
  });

  it("describes required settings, defaults and secrets from the declaration", () => {
    const specs = describeSettings(LABDATA_SETTINGS);
    expect(specs.find((spec) => spec.env === "LABDATA_BASE_URL")).toMatchObject({
      required: true,
      flag: "--base-url",
      kind: "https-url",
    });
    expect(specs.find((spec) => spec.env === "LABDATA_API_KEY")).toMatchObject({
      required: false,
      kind: "secret",
    });
    expect(describeSettings(coreSettings()).find((spec) => spec.env === "MCP_PORT")).toMatchObject({
      required: false,
      default: "3000",
    });
  });
});
