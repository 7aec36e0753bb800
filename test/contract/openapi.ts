// The lab data platform's published OpenAPI 3.0 document as a validator: which operation a request
// is, whether the request fits the operation's parameters and body, and whether the answer fits the
// schema and headers the document gives for its status.
//
// openapi-backend routes and validates (parameters with their coercion, request bodies, response
// bodies by status, declared response headers) with Ajv. Two rules of OpenAPI 3.0 schema objects are
// not JSON Schema, and this document relies on both, so they are rewritten first (see `toJsonSchema`).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2019 from "ajv/dist/2019.js";
import addFormats from "ajv-formats";
import { OpenAPIBackend, SetMatchType } from "openapi-backend";
import { parse } from "yaml";

const DOCUMENT = join(import.meta.dirname, "benchling-openapi.yaml");

type Json = Record<string, unknown>;

export interface Exchange {
  method: string;
  /** Below the API root, e.g. "/dna-sequences/seq_1". */
  path: string;
  query: Record<string, string>;
  requestHeaders: Record<string, string>;
  /** Parsed JSON, or the form fields of a form body; undefined when none. */
  requestBody: unknown;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: unknown;
}

/**
 * OpenAPI 3.0 schema objects to JSON Schema (2019-09), in place:
 * - `nullable: true` adds null to what the schema accepts, also where it has no `type` (the document
 *   writes `allOf: [$ref], nullable: true` for every nullable object, e.g. archiveRecord). Ajv's own
 *   `nullable` support refuses a schema without `type`.
 * - `additionalProperties: false` beside `allOf` (e.g. DnaSequenceCreate) is meant as "nothing the
 *   parts do not declare": in JSON Schema that is `unevaluatedProperties: false`; read literally it
 *   would refuse every property, so every valid request.
 */
export function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) {
    for (const item of node) toJsonSchema(item);
    return node;
  }
  if (!node || typeof node !== "object") return node;
  const schema = node as Json;
  for (const [key, value] of Object.entries(schema)) {
    if (key !== "example" && key !== "examples") toJsonSchema(value);
  }
  if (schema.nullable === true) {
    if (Array.isArray(schema.enum)) schema.enum = [...schema.enum, null];
    if (typeof schema.type === "string") schema.type = [schema.type, "null"];
    else if (Array.isArray(schema.allOf)) {
      schema.anyOf = [{ allOf: schema.allOf }, { type: "null" }];
      delete schema.allOf;
    } else if (Array.isArray(schema.oneOf)) schema.oneOf = [...schema.oneOf, { type: "null" }];
    else if (Array.isArray(schema.anyOf)) schema.anyOf = [...schema.anyOf, { type: "null" }];
    else if (typeof schema.$ref === "string") {
      schema.anyOf = [{ $ref: schema.$ref }, { type: "null" }];
      delete schema.$ref;
    }
  }
  if (typeof schema.nullable === "boolean") delete schema.nullable;
  if (schema.additionalProperties === false && (schema.allOf || schema.anyOf || schema.oneOf)) {
    delete schema.additionalProperties;
    schema.unevaluatedProperties = false;
  }
  return schema;
}

function newAjv(options: object = {}) {
  const ajv = new Ajv2019.default({ ...options, strict: false, allErrors: true });
  addFormats.default(ajv);
  return ajv;
}

/**
 * What the document gives for statuses an operation does not declare (it declares 200/201 and 400 or
 * 404 for most): the error schema it uses for that status elsewhere, else its BaseError envelope.
 */
const UNDECLARED_STATUS_SCHEMAS: Record<number, string> = {
  400: "BadRequestError",
  403: "ForbiddenError",
  404: "NotFoundError",
  409: "ConflictError",
};

export interface ContractProblem {
  where: string;
  errors: unknown;
}

/**
 * Findings that are the document's own contradiction, not the emulator's: a request's assignee is
 * oneOf RequestUserAssignee {user} and RequestTeamAssignee {team}, neither of which requires its
 * property, so every assignee object matches both and no answer can pass
 * (labdata-notebook-contract.test.ts checks that this still holds).
 */
export const DOCUMENT_DEFECTS = [
  /^GET \/requests -> 200: response 200 \/requests\/N\/assignees\/N must match exactly one schema in oneOf$/,
];

/** The platform's ids in a path (seq_…, etr_…, a uuid), folded to {id} so that findings group. */
const PATH_IDS = /\/(seq|etr|tmpl|assaysch|wftask)_\w+|\/[0-9a-f-]{36}/g;

export class OpenApiContract {
  readonly document: Json & { components: { schemas: Record<string, unknown> }; paths: Json };
  private readonly backend: OpenAPIBackend;
  private readonly ajv = newAjv();
  private readonly errorValidators = new Map<string, ReturnType<typeof this.ajv.compile>>();

  private constructor() {
    this.document = toJsonSchema(parse(readFileSync(DOCUMENT, "utf8"))) as OpenApiContract["document"];
    this.backend = new OpenAPIBackend({
      definition: structuredClone(this.document) as never,
      // The document itself is not re-validated (it has 2000+ findings against the 3.0 meta-schema,
      // none in the operations used here); validators are compiled when first used.
      quick: true,
      strict: false,
      validate: true,
      customizeAjv: (_ajv, options) => newAjv(options),
    });
    this.ajv.addSchema({ ...this.document, $id: "openapi" });
  }

  static async load(): Promise<OpenApiContract> {
    const contract = new OpenApiContract();
    await contract.backend.init();
    return contract;
  }

  /** The document's operation id for a request, or undefined when the document has no such path. */
  operationId(method: string, path: string): string | undefined {
    return this.backend.router.matchOperation({ method: method.toLowerCase(), path, headers: {} })
      ?.operationId;
  }

  /** A named component schema, for a generator. */
  schema(name: string): unknown {
    const schema = this.document.components.schemas[name];
    if (!schema) throw new Error(`no schema ${name} in the document`);
    return schema;
  }

  /**
   * Everything in the exchange that the document contradicts; empty when it fits. `allHeaders`: every
   * response header the document declares must be there (it makes none required; the emulator sends
   * them all).
   */
  check(exchange: Exchange, { allHeaders = false } = {}): ContractProblem[] {
    const operationId = this.operationId(exchange.method, exchange.path);
    if (!operationId) return [{ where: "operation", errors: `${exchange.method} ${exchange.path}` }];
    const problems: ContractProblem[] = [];
    const request = this.backend.validator.validateRequest(
      {
        method: exchange.method.toLowerCase(),
        path: exchange.path,
        query: exchange.query,
        headers: exchange.requestHeaders,
        body: exchange.requestBody,
      },
      operationId,
    );
    if (request.errors?.length) problems.push({ where: "request", errors: request.errors });
    for (const problem of this.checkResponse(operationId, exchange, { allHeaders })) problems.push(problem);
    return problems;
  }

  /**
   * What the document contradicts in `exchanges`, one line per kind of finding (ids and array indexes
   * folded), without the document's own defects. `specOnly`: paths the document lacks, by
   * "METHOD /path", each with why it is still served.
   */
  problems(exchanges: Exchange[], specOnly: Record<string, string> = {}): string[] {
    const lines = exchanges.flatMap((exchange) => {
      const label = `${exchange.method} ${exchange.path.replace(PATH_IDS, "/{id}")} -> ${exchange.status}`;
      if (
        !this.operationId(exchange.method, exchange.path) &&
        !specOnly[`${exchange.method} ${exchange.path}`]
      ) {
        return [`${label}: not in the document and not listed as spec-only`];
      }
      return this.check(exchange, { allHeaders: true }).flatMap(({ where, errors }) =>
        (Array.isArray(errors) ? errors : [errors]).map(
          (error: { instancePath?: string; message?: string }) =>
            `${label}: ${where} ${(error.instancePath ?? "").replace(/\/\d+/g, "/N")} ${error.message ?? JSON.stringify(error)}`,
        ),
      );
    });
    return [...new Set(lines)].filter((line) => !DOCUMENT_DEFECTS.some((defect) => defect.test(line)));
  }

  checkResponse(
    operationId: string,
    exchange: Pick<Exchange, "status" | "responseBody" | "responseHeaders">,
    { allHeaders = false } = {},
  ): ContractProblem[] {
    const problems: ContractProblem[] = [];
    const operation = this.backend.getOperation(operationId);
    const declared = Boolean(operation?.responses?.[String(exchange.status)]);
    if (declared) {
      const body = this.backend.validator.validateResponse(
        exchange.responseBody,
        operationId,
        exchange.status,
      );
      if (body.errors?.length) problems.push({ where: `response ${exchange.status}`, errors: body.errors });
      const headers = this.backend.validator.validateResponseHeaders(exchange.responseHeaders, operationId, {
        statusCode: exchange.status,
        // Any: declared headers are checked when present; Superset: they must all be present.
        setMatchType: allHeaders ? SetMatchType.Superset : SetMatchType.Any,
      });
      if (headers.errors?.length)
        problems.push({ where: `headers ${exchange.status}`, errors: headers.errors });
    } else {
      const errors = this.undeclaredStatusErrors(exchange.status, exchange.responseBody);
      if (errors) problems.push({ where: `response ${exchange.status} (undeclared)`, errors });
    }
    return problems;
  }

  /** Which schema an answer with a status the operation does not declare is held to. */
  undeclaredStatusSchema(status: number): string {
    return UNDECLARED_STATUS_SCHEMAS[status] ?? "BaseError";
  }

  private undeclaredStatusErrors(status: number, body: unknown): unknown {
    const name = this.undeclaredStatusSchema(status);
    let validate = this.errorValidators.get(name);
    if (!validate) {
      const ref = { $ref: `openapi#/components/schemas/${name}` };
      validate = this.ajv.compile(
        name === "BaseError"
          ? { type: "object", required: ["error"], properties: { error: ref } }
          : { allOf: [ref, { type: "object", required: ["error"] }] },
      );
      this.errorValidators.set(name, validate);
    }
    return validate(body) ? undefined : validate.errors;
  }
}
