// Which tools the test files call, read from their source with TypeScript's parser. A tool counts as
// called where its name is a string argument, or the `name` of an object argument, of a call to
// `callTool` or to a test helper that reaches `callTool`: `client.callTool({ name: "x" })`,
// `call(conn, "x")`, `json("x")`, `run("x")`. Helpers are found, not listed: any named function whose
// body calls `callTool` or another helper, in its own file or imported from one. A name that is only
// mentioned (`describe("x", ...)`, a table of cases) is not a call.
import { dirname, resolve } from "node:path";
import ts from "typescript";

/** The entry point every helper ends in: the SDK client's method (and the raw JSON-RPC builder). */
const CALL_TOOL = "callTool";

interface ParsedFile {
  source: ts.SourceFile;
  /** Named functions defined in the file, by name. */
  functions: Map<string, ts.Node>;
  /** Names imported from other test files: local name -> [absolute path, exported name]. */
  imports: Map<string, [string, string]>;
  /** Local names that reach `callTool`, filled in by `findHelpers`. */
  helpers: Set<string>;
}

/** The name a call is made by: `f(...)` and `x.f(...)` are both calls of `f`. */
function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return undefined;
}

function isFunction(node: ts.Node | undefined): node is ts.FunctionLikeDeclaration {
  return node !== undefined && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));
}

function parse(path: string, text: string): ParsedFile {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const functions = new Map<string, ts.Node>();
  const imports = new Map<string, [string, string]>();
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.name) functions.set(node.name.text, node);
    if (ts.isMethodDeclaration(node) && ts.isIdentifier(node.name)) functions.set(node.name.text, node);
    if (
      (ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node)) &&
      ts.isIdentifier(node.name) &&
      isFunction(node.initializer)
    ) {
      functions.set(node.name.text, node.initializer);
    }
    if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text.startsWith(".")
    ) {
      const from = resolve(dirname(path), node.moduleSpecifier.text.replace(/\.js$/, ".ts"));
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          imports.set(element.name.text, [from, (element.propertyName ?? element.name).text]);
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { source, functions, imports, helpers: new Set() };
}

/** Every call in `node` (itself included) made by a name in `names`. */
function callsBy(node: ts.Node, names: Set<string>): ts.CallExpression[] {
  const found: ts.CallExpression[] = [];
  const visit = (child: ts.Node): void => {
    if (ts.isCallExpression(child)) {
      const name = calleeName(child);
      if (name === CALL_TOOL || (name !== undefined && names.has(name))) found.push(child);
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return found;
}

/** Marks the helpers of every file, until no more are found (helpers call helpers across files). */
function findHelpers(files: Map<string, ParsedFile>): void {
  let grew = true;
  while (grew) {
    grew = false;
    for (const file of files.values()) {
      for (const [local, [from, exported]] of file.imports) {
        if (!file.helpers.has(local) && files.get(from)?.helpers.has(exported)) {
          file.helpers.add(local);
          grew = true;
        }
      }
      for (const [name, body] of file.functions) {
        if (!file.helpers.has(name) && callsBy(body, file.helpers).length > 0) {
          file.helpers.add(name);
          grew = true;
        }
      }
    }
  }
}

/** The literal tool names a call passes: as a string argument or an object argument's `name`. */
function namesPassed(call: ts.CallExpression): string[] {
  const names: string[] = [];
  for (const argument of call.arguments) {
    if (ts.isStringLiteralLike(argument)) names.push(argument.text);
    if (ts.isObjectLiteralExpression(argument)) {
      for (const property of argument.properties) {
        if (
          ts.isPropertyAssignment(property) &&
          ts.isIdentifier(property.name) &&
          property.name.text === "name" &&
          ts.isStringLiteralLike(property.initializer)
        ) {
          names.push(property.initializer.text);
        }
      }
    }
  }
  return names;
}

/**
 * For each of `toolNames`, the test files that call it (none: an empty list).
 * `sources` maps each test file's absolute path to its text.
 */
export function toolCallers(sources: Map<string, string>, toolNames: string[]): Map<string, string[]> {
  const files = new Map([...sources].map(([path, text]) => [path, parse(path, text)]));
  findHelpers(files);
  const callers = new Map(toolNames.map((name) => [name, new Set<string>()]));
  for (const [path, file] of files) {
    for (const call of callsBy(file.source, file.helpers)) {
      for (const name of namesPassed(call)) callers.get(name)?.add(path);
    }
  }
  return new Map([...callers].map(([name, paths]) => [name, [...paths].sort()]));
}
