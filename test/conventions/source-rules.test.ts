// One kit for every service: the shared inputs and the pagination envelope come from core, and no
// service swallows an error it did not expect. Read from the source (source-rules.ts), so that a
// service that forks the kit fails here, not in review.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/clients.js";
import {
  credentialClimbFindings,
  envelopeFindings,
  type SourceFile,
  sharedInputFindings,
  swallowingCatchFindings,
} from "./source-rules.js";

const SERVICES_DIR = join(ROOT, "packages", "lab-mcp", "src", "services");

function serviceSources(): SourceFile[] {
  return readdirSync(SERVICES_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => join(entry.parentPath, entry.name))
    .map((path) => ({ path, text: readFileSync(path, "utf8") }));
}

const services = serviceSources();

describe("the services use core's kit", () => {
  it("declare no limit, offset or response_format of their own (core/inputs.ts)", () => {
    expect(sharedInputFindings(services, ROOT)).toEqual([]);
  });

  it("declare no pagination envelope of their own (core/paging.ts)", () => {
    expect(envelopeFindings(services, ROOT)).toEqual([]);
  });

  it("catch no error of an awaited call that they neither rethrow nor test the type of", () => {
    expect(swallowingCatchFindings(services, ROOT)).toEqual([]);
  });

  it("take the credential from the call: only the source, sign-ins and the CLI climb the ladder", () => {
    expect(credentialClimbFindings(services, ROOT)).toEqual([]);
  });
});

describe("the rules themselves", () => {
  const file = (text: string): SourceFile[] => [
    { path: join(SERVICES_DIR, "demo", "tools", "list-things.ts"), text },
  ];

  it("find a handler or client that climbs the ladder or calls the source, and pass ctx.credential", () => {
    const findings = credentialClimbFindings(
      file(
        [
          "const a = await api.credentials.required(ctx);",
          "const b = await this.credentials.refused(ctx, a);",
          "const c = await climb(ladder, ctx);",
          "const d = ctx.credential;",
          "const e = await api.credentials.signOut(ctx);",
        ].join("\n"),
      ),
      ROOT,
    );
    expect(findings.map((line) => line.split(":").slice(0, 2).join(":"))).toEqual([
      "packages/lab-mcp/src/services/demo/tools/list-things.ts:1",
      "packages/lab-mcp/src/services/demo/tools/list-things.ts:2",
      "packages/lab-mcp/src/services/demo/tools/list-things.ts:3",
    ]);
  });

  it("find a limit built again, a responseFormat declared again and core's names imported from elsewhere", () => {
    const findings = sharedInputFindings(
      file(
        [
          'import { z } from "zod";',
          'import { boundedInteger, pagingInputs } from "../../../core/inputs.js";',
          'import { responseFormat as format } from "../inputs.js";',
          'export const responseFormat = z.enum(["markdown", "json"]);',
          "const input = {",
          '  limit: boundedInteger({ description: "Per page.", min: 1, max: 50 }),',
          "  response_format: format,",
          "  ...pagingInputs,",
          "};",
          "const query = { limit: 5, offset: page.offset };",
          "for (let offset = 0; offset < 5; offset++) query.offset = offset;",
        ].join("\n"),
      ),
      SERVICES_DIR,
    );
    expect(findings).toEqual([
      "demo/tools/list-things.ts:4: declares responseFormat; import it from core/inputs.ts",
      "demo/tools/list-things.ts:6: declares its own limit input; use core/inputs.ts (pagingInputs, responseFormat)",
      "demo/tools/list-things.ts:7: declares its own response_format input; use core/inputs.ts (pagingInputs, responseFormat)",
    ]);
  });

  it("find an envelope written as an object or a type, and not one read", () => {
    const findings = envelopeFindings(
      file(
        [
          "const shape = { total: z.number(), has_more: z.boolean(), next_offset: z.number().nullable() };",
          "type Envelope = { has_more: boolean; next_offset: number | null };",
          "const more = page.has_more && page.next_offset;",
        ].join("\n"),
      ),
      SERVICES_DIR,
    );
    expect(findings.map((line) => line.split(":").slice(0, 2).join(":"))).toEqual([
      "demo/tools/list-things.ts:1",
      "demo/tools/list-things.ts:2",
    ]);
  });

  it("find a catch-all around an awaited call, and pass one that rethrows, tests a type or guards sync work", () => {
    const findings = swallowingCatchFindings(
      file(
        [
          "async function a() { try { await read(); } catch { return undefined; } }",
          "async function b() { try { await read(); } catch (error) { log(error); throw error; } }",
          "async function c() { try { await read(); } catch (error) { if (error instanceof NotFound) return; } }",
          "function d() { try { return JSON.parse(text); } catch { return undefined; } }",
          "async function e() { try { await read(); } catch (error) { if (error instanceof Error) return; } }",
          'async function f() { try { await read(); } catch (error) { if ((error as E).code === "ENOENT") return; } }',
        ].join("\n"),
      ),
      SERVICES_DIR,
    );
    expect(findings.map((line) => line.split(":").slice(0, 2).join(":"))).toEqual([
      "demo/tools/list-things.ts:1",
      "demo/tools/list-things.ts:5",
    ]);
  });
});
