// No response schema of labdata_mcp requires a field that the OpenAPI document leaves optional, or
// refuses null where the document allows it: each schema against the document's, property by property.

import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  assayResultSchema,
  assayRunSchema,
  assaySchemaSchema,
  entryByIdSchema,
  entrySchema,
  entryTemplateSchema,
  fieldValueSchema,
  teamSchema,
  workflowTaskSchema,
} from "../../packages/lab-mcp/src/services/labdata/records/notebook.js";
import {
  annotationSchema,
  dnaSequenceSchema,
  folderSchema,
  listSchema,
  projectSchema,
  tokenResponseSchema,
  userSchema,
} from "../../packages/lab-mcp/src/services/labdata/records/platform.js";
import { OpenApiContract } from "./openapi.js";

type SchemaNode = {
  properties?: Record<string, unknown>;
  required?: string[];
  allOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  $ref?: string;
};

let contract: OpenApiContract;
beforeAll(async () => {
  contract = await OpenApiContract.load();
});

/** The properties a document schema declares, through $ref and allOf, and the ones it requires. */
function declared(node: SchemaNode): { properties: string[]; required: string[] } {
  if (node.$ref)
    return declared(contract.schema(node.$ref.replace("#/components/schemas/", "")) as SchemaNode);
  const parts = [...(node.allOf ?? [])].map(declared);
  return {
    properties: [...Object.keys(node.properties ?? {}), ...parts.flatMap((part) => part.properties)],
    required: [...(node.required ?? []), ...parts.flatMap((part) => part.required)],
  };
}

const PAIRS: Array<[string, z.ZodType]> = [
  ["User", userSchema],
  ["DnaSequence", dnaSequenceSchema],
  ["DnaAnnotation", annotationSchema],
  ["Project", projectSchema],
  ["Folder", folderSchema],
  ["TokenResponse", tokenResponseSchema],
  ["DnaSequencesPaginatedList", listSchema("dnaSequences", dnaSequenceSchema)],
  ["ProjectsPaginatedList", listSchema("projects", projectSchema)],
  ["FoldersPaginatedList", listSchema("folders", folderSchema)],
  // Notebook, results and work (issue 17, part a).
  ["Entry", entrySchema],
  ["EntryById", entryByIdSchema],
  ["EntryTemplate", entryTemplateSchema],
  ["AssayRunSchema", assaySchemaSchema],
  ["AssayResultSchema", assaySchemaSchema],
  ["AssayRun", assayRunSchema],
  ["AssayResult", assayResultSchema],
  ["WorkflowTask", workflowTaskSchema],
  ["Team", teamSchema],
  ["EntriesPaginatedList", listSchema("entries", entrySchema)],
  ["EntryTemplatesPaginatedList", listSchema("entryTemplates", entryTemplateSchema)],
  ["AssayRunsPaginatedList", listSchema("assayRuns", assayRunSchema)],
  ["AssayResultsPaginatedList", listSchema("assayResults", assayResultSchema)],
  ["WorkflowTasksPaginatedList", listSchema("workflowTasks", workflowTaskSchema)],
];

describe("Field (a field value)", () => {
  it("reads every value the document allows, and a missing or odd one as missing", () => {
    for (const value of ["x", 1.5, true, ["a"], { id: "x" }, null])
      expect(fieldValueSchema.parse({ value }).value).toEqual(value);
    expect(fieldValueSchema.parse({}).value).toBeUndefined();
    expect(fieldValueSchema.parse({ value: undefined, displayValue: 3 }).displayValue).toBeUndefined();
  });
});

describe.each(PAIRS)("%s", (name, schema) => {
  it("the document requires none of its fields, and neither do we", () => {
    const { properties, required } = declared(contract.schema(name) as SchemaNode);
    expect(properties.length).toBeGreaterThan(0);
    expect(required).toEqual([]);
    expect(schema.safeParse({}).success).toBe(true);
  });

  it("every field may be null or of an unexpected type without failing the answer", () => {
    const { properties } = declared(contract.schema(name) as SchemaNode);
    for (const property of properties) {
      expect(schema.safeParse({ [property]: null }).success, `${property}: null`).toBe(true);
      expect(schema.safeParse({ [property]: { unexpected: [1] } }).success, `${property}: object`).toBe(true);
    }
  });

  it("keeps fields it does not model, for the json format", () => {
    expect(schema.parse({ registryId: "src_1" })).toMatchObject({ registryId: "src_1" });
  });
});
