import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

// Finds methods in sdk/src and plugins/*/src that take a database handle or transaction as an argument (issue 25:
// a service uses the handle it was built with, and the caller's unit of work carries the transaction). A source
// scan, so it costs no type check: a parameter is flagged by its type as written, its name or its default.

/** Types that stand for a database handle or a transaction. */
const HANDLE_TYPES = new Set([
  'Database',
  'DatabaseTransaction',
  'Transaction',
  'ControlledTransaction',
  'Kysely',
]);
/** A plain function may take the shared handle as it would a constructor; never a transaction. */
const TRANSACTION_TYPES = new Set(['DatabaseTransaction', 'Transaction', 'ControlledTransaction']);
const HANDLE_NAMES = new Set(['trx', 'tx', 'transaction']);

export interface HandleParameter {
  file: string;
  /** method: of a class, interface or object; function: a plain function, which may take the shared handle. */
  kind: 'method' | 'function';
  line: number;
  method: string;
  parameter: string;
}

/** True when the type (outside any callback type it contains) names a handle type. */
function namesHandleType(node: ts.Node, types: Set<string>): boolean {
  if (ts.isFunctionTypeNode(node) || ts.isConstructorTypeNode(node)) return false;
  if (ts.isTypeReferenceNode(node)) {
    const name = ts.isIdentifier(node.typeName) ? node.typeName.text : node.typeName.right.text;
    if (types.has(name)) return true;
  }
  return ts.forEachChild(node, (child) => namesHandleType(child, types) || undefined) ?? false;
}

function takesHandle(parameter: ts.ParameterDeclaration, types: Set<string>): boolean {
  if (ts.isIdentifier(parameter.name) && HANDLE_NAMES.has(parameter.name.text)) return true;
  if (parameter.type && namesHandleType(parameter.type, types)) return true;
  // `db = this.db`: a handle the caller may swap for a transaction.
  const initial = parameter.initializer;
  return (
    !!initial &&
    ts.isPropertyAccessExpression(initial) &&
    initial.expression.kind === ts.SyntaxKind.ThisKeyword &&
    /^(db|trx|database)$/.test(initial.name.text)
  );
}

interface Callable {
  name: string;
  kind: HandleParameter['kind'];
  parameters: readonly ts.ParameterDeclaration[];
}

/** A method (of a class, an interface or an object) or a named plain function; null for anything else. */
function callable(node: ts.Node): Callable | null {
  if (ts.isMethodDeclaration(node) || ts.isMethodSignature(node))
    return { name: node.name.getText(), kind: 'method', parameters: node.parameters };
  if (
    (ts.isPropertyDeclaration(node) || ts.isPropertySignature(node)) &&
    node.type &&
    ts.isFunctionTypeNode(node.type)
  )
    return { name: node.name.getText(), kind: 'method', parameters: node.type.parameters };
  if (
    ts.isPropertyDeclaration(node) &&
    node.initializer &&
    (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
  )
    return { name: node.name.getText(), kind: 'method', parameters: node.initializer.parameters };
  if (ts.isFunctionDeclaration(node) && node.name)
    return { name: node.name.text, kind: 'function', parameters: node.parameters };
  if (
    ts.isVariableDeclaration(node) &&
    node.initializer &&
    (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
  )
    return { name: node.name.getText(), kind: 'function', parameters: node.initializer.parameters };
  return null;
}

/** Migrations take the transaction they run in by design; they are not services. */
const isMigration = (path: string) => /(^|\/)migrations?(\/|\.ts$|-)/.test(path);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

export function scanFile(path: string, root: string): HandleParameter[] {
  const file = relative(root, path);
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: HandleParameter[] = [];
  // A file's own aliases (`type Db = Database | DatabaseTransaction`) count as what they stand for.
  const handleTypes = new Set(HANDLE_TYPES);
  const transactionTypes = new Set(TRANSACTION_TYPES);
  for (const statement of source.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    if (namesHandleType(statement.type, HANDLE_TYPES)) handleTypes.add(statement.name.text);
    if (namesHandleType(statement.type, TRANSACTION_TYPES)) transactionTypes.add(statement.name.text);
  }
  const visit = (node: ts.Node) => {
    const method = callable(node);
    for (const parameter of method?.parameters ?? []) {
      if (!takesHandle(parameter, method!.kind === 'function' ? transactionTypes : handleTypes)) continue;
      const line = source.getLineAndCharacterOfPosition(parameter.getStart()).line + 1;
      found.push({
        file,
        line,
        kind: method!.kind,
        method: method!.name,
        parameter: parameter.name.getText(),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every handle parameter of a method in sdk/src and plugins/<name>/src under root. */
export function scanServices(root: string): HandleParameter[] {
  const dirs = [
    join(root, 'sdk/src'),
    ...readdirSync(join(root, 'plugins'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(root, 'plugins', entry.name, 'src')),
  ];
  return dirs
    .flatMap((dir) => {
      try {
        return sourceFiles(dir);
      } catch {
        return [];
      }
    })
    .filter((path) => !isMigration(relative(root, path)))
    .flatMap((path) => scanFile(path, root));
}
