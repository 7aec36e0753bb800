// The conventions as rules over the services' source, read with TypeScript's parser (as
// github-mcp-server's static validation and sentry-mcp's ast-grep rules hold theirs): what a service
// must take from core rather than declare again, and what a catch must do with an error it did not
// expect. Each rule returns findings, "path:line: what", so that a failure points at the line.
import { dirname, relative, resolve } from "node:path";
import ts from "typescript";

/** The shared inputs of the conventions, declared once in core/inputs.ts. */
const SHARED_INPUTS = new Set(["limit", "offset", "response_format"]);
/** core/inputs.ts's names for them, which a service imports and never declares. */
const SHARED_INPUT_NAMES = new Set(["limit", "offset", "responseFormat", "pagingInputs"]);
/** Two fields only the pagination envelope has (core/paging.ts: pageOf, pageShape). */
const ENVELOPE_FIELDS = ["has_more", "next_offset"];

export interface SourceFile {
  /** Absolute path. */
  path: string;
  text: string;
}

interface Parsed {
  path: string;
  source: ts.SourceFile;
  /** Local name -> the absolute module path it is imported from (without extension). */
  imports: Map<string, string>;
}

function parse({ path, text }: SourceFile): Parsed {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const imports = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const from = resolve(dirname(path), statement.moduleSpecifier.text).replace(/\.js$/, "");
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) imports.set(element.name.text, from);
    }
  }
  return { path, source, imports };
}

function where(file: Parsed, node: ts.Node, root: string): string {
  const { line } = file.source.getLineAndCharacterOfPosition(node.getStart(file.source));
  return `${relative(root, file.path)}:${line + 1}`;
}

/** Every node of `node` (itself included), not descending into nested functions when `ownOnly`. */
function* nodesOf(node: ts.Node, ownOnly = false): Generator<ts.Node> {
  yield node;
  for (const child of node.getChildren()) {
    if (ownOnly && ts.isFunctionLike(child)) continue;
    yield* nodesOf(child, ownOnly);
  }
}

/** The identifier a chain of calls and property reads starts from: `z` of `z.enum(...).default(...)`. */
function rootName(expression: ts.Expression): string | undefined {
  let current: ts.Expression = expression;
  while (ts.isCallExpression(current) || ts.isPropertyAccessExpression(current)) current = current.expression;
  return ts.isIdentifier(current) ? current.text : undefined;
}

const isCoreInputs = (from: string | undefined) => from?.endsWith("/core/inputs") === true;

/**
 * A schema for a shared input that the file makes itself: built with zod, or from core's building
 * blocks (another bound), or a schema imported from anywhere but core/inputs.ts.
 */
function ownSchema(file: Parsed, expression: ts.Expression): boolean {
  const root = rootName(expression);
  if (root === undefined) return false;
  if (root === "z") return true;
  const from = file.imports.get(root);
  if (from === undefined) return false;
  // core/inputs.ts's own `limit`, `offset`, `responseFormat` are the point; its builders are not.
  return !(isCoreInputs(from) && SHARED_INPUT_NAMES.has(root) && ts.isIdentifier(expression));
}

function propertyName(node: ts.ObjectLiteralElementLike | ts.TypeElement): string | undefined {
  const name = node.name;
  if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name))) return name.text;
  return undefined;
}

/** `limit`, `offset`, `response_format` (or core's names for them) declared by a service. */
export function sharedInputFindings(files: SourceFile[], root: string): string[] {
  const findings: string[] = [];
  for (const file of files.map(parse)) {
    for (const node of nodesOf(file.source)) {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        const made = ownSchema(file, node.initializer) || ts.isObjectLiteralExpression(node.initializer);
        if (SHARED_INPUT_NAMES.has(node.name.text) && made) {
          findings.push(
            `${where(file, node, root)}: declares ${node.name.text}; import it from core/inputs.ts`,
          );
        }
      }
      if (ts.isPropertyAssignment(node)) {
        const name = propertyName(node);
        if (name && SHARED_INPUTS.has(name) && ownSchema(file, node.initializer)) {
          findings.push(
            `${where(file, node, root)}: declares its own ${name} input; use core/inputs.ts (pagingInputs, responseFormat)`,
          );
        }
      }
    }
  }
  return findings;
}

/** An object or type with the envelope's own fields: a service writing the envelope again. */
export function envelopeFindings(files: SourceFile[], root: string): string[] {
  const findings: string[] = [];
  for (const file of files.map(parse)) {
    for (const node of nodesOf(file.source)) {
      const members = ts.isObjectLiteralExpression(node)
        ? node.properties
        : ts.isTypeLiteralNode(node) || ts.isInterfaceDeclaration(node)
          ? node.members
          : undefined;
      if (!members) continue;
      const names = new Set(members.map(propertyName));
      if (ENVELOPE_FIELDS.every((field) => names.has(field))) {
        findings.push(
          `${where(file, node, root)}: declares the pagination envelope; use core/paging.ts (pageOf, pageShape)`,
        );
      }
    }
  }
  return findings;
}

/**
 * Whether the catch block tells errors apart by type: `error instanceof RemoteStatusError` (any class
 * but Error itself), or a Node error's `code` (`(error as NodeJS.ErrnoException).code`).
 */
function handlesATypedError(clause: ts.CatchClause): boolean {
  const name = clause.variableDeclaration?.name;
  const caught = name && ts.isIdentifier(name) ? name.text : undefined;
  for (const node of nodesOf(clause.block, true)) {
    if (
      ts.isBinaryExpression(node) &&
      node.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword &&
      ts.isIdentifier(node.right) &&
      node.right.text !== "Error"
    ) {
      return true;
    }
    if (ts.isPropertyAccessExpression(node) && node.name.text === "code" && caught !== undefined) {
      let target: ts.Expression = node.expression;
      while (ts.isParenthesizedExpression(target) || ts.isAsExpression(target)) target = target.expression;
      if (ts.isIdentifier(target) && target.text === caught) return true;
    }
  }
  return false;
}

/**
 * A bin's subcommands (cli.ts) and its settings check (check.ts) are boundaries of their own, as
 * core/server/tool-call.ts is for a tool: there every failure is told in one line and ends the command.
 */
const BOUNDARY_FILES = /\/services\/[^/]+\/(cli|check)\.ts$/;

const throws = (block: ts.Block) => [...nodesOf(block, true)].some(ts.isThrowStatement);
const awaits = (block: ts.Block) => [...nodesOf(block, true)].some(ts.isAwaitExpression);

/**
 * A catch around an awaited call that neither throws (the error again, or one that says what went
 * wrong) nor tests the error's type: it would swallow whatever comes up, an ask for the user
 * (InputRequiredSignal) or a cancellation among them. A catch around synchronous work (JSON.parse,
 * new URL) cannot meet those, and may fall back in silence.
 */
export function swallowingCatchFindings(files: SourceFile[], root: string): string[] {
  const findings: string[] = [];
  for (const file of files.map(parse)) {
    if (BOUNDARY_FILES.test(file.path)) continue;
    for (const node of nodesOf(file.source)) {
      if (!ts.isTryStatement(node) || !node.catchClause || !awaits(node.tryBlock)) continue;
      if (throws(node.catchClause.block) || handlesATypedError(node.catchClause)) continue;
      findings.push(
        `${where(file, node.catchClause, root)}: catches every error of an awaited call and neither rethrows nor tests its type`,
      );
    }
  }
  return findings;
}

/**
 * Where a service may climb its credential source itself: the source, the sign-in flows of auth/ (which
 * make the credential and then read who signed in), and `check` and the CLI, which run without a tool
 * call. Everywhere else (tools, api/, the client, the warehouse) the credential comes on the call,
 * decided at the tool-call boundary (core/server/call-credential.ts).
 */
const MAY_CLIMB = /\/(credential-source|check|cli)\.ts$|\/auth\/[^/]+\.ts$/;
/** The source's methods that climb the ladder or report a refusal. */
const CLIMBING_METHODS = new Set(["required", "optional", "refused", "current"]);

/** A call of the ladder (`climb(...)`) or of a credential source (`….credentials.required(...)`) outside MAY_CLIMB. */
export function credentialClimbFindings(files: SourceFile[], root: string): string[] {
  const findings: string[] = [];
  for (const input of files) {
    if (MAY_CLIMB.test(input.path.replaceAll("\\", "/"))) continue;
    const file = parse(input);
    for (const node of nodesOf(file.source)) {
      if (!ts.isCallExpression(node)) continue;
      const callee = node.expression;
      if (ts.isIdentifier(callee) && callee.text === "climb") {
        findings.push(`${where(file, node, root)}: climbs the credential ladder; the boundary does`);
      } else if (
        ts.isPropertyAccessExpression(callee) &&
        CLIMBING_METHODS.has(callee.name.text) &&
        /(^|\.)credentials$/.test(callee.expression.getText(file.source))
      ) {
        findings.push(
          `${where(file, node, root)}: calls the credential source; use ctx.credential (the boundary decided it)`,
        );
      }
    }
  }
  return findings;
}
