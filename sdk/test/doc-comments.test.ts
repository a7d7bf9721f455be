import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import ts from 'typescript';

// Addon authors read the sdk through their editor's hover: every public function, method and class says in one
// line what it is for. This walks the sources and lists whatever lacks a doc comment.

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    // The client's types are generated from /openapi.json, where each route carries its own summary.
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const isExported = (node: ts.Node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
const isPrivate = (node: ts.Node) =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some(
    (m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword,
  );
const hasDoc = (node: ts.Node) => ts.getJSDocCommentsAndTags(node).length > 0;
const isFunction = (node: ts.Node | undefined) =>
  !!node && (ts.isArrowFunction(node) || ts.isFunctionExpression(node));

/** The public functions of one file that have no doc comment, as "file:line name". */
function undocumented(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const missing: string[] = [];
  const report = (node: ts.Node, name: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart());
    missing.push(`${relative(SRC, file)}:${line + 1} ${name}`);
  };
  const members = (owner: string, list: ts.NodeArray<ts.ClassElement | ts.TypeElement>) => {
    for (const member of list) {
      const callable =
        ts.isMethodDeclaration(member) ||
        ts.isMethodSignature(member) ||
        ((ts.isPropertySignature(member) || ts.isPropertyDeclaration(member)) &&
          member.type !== undefined &&
          ts.isFunctionTypeNode(member.type));
      if (callable && !isPrivate(member) && !hasDoc(member))
        report(member, `${owner}.${member.name?.getText()}`);
    }
  };
  for (const statement of source.statements) {
    if (!isExported(statement)) continue;
    if (ts.isFunctionDeclaration(statement) && !hasDoc(statement)) report(statement, statement.name!.text);
    if (ts.isClassDeclaration(statement)) {
      if (!hasDoc(statement)) report(statement, `class ${statement.name!.text}`);
      members(statement.name!.text, statement.members);
    }
    if (ts.isInterfaceDeclaration(statement)) members(statement.name.text, statement.members);
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (isFunction(declaration.initializer) && !hasDoc(statement))
          report(statement, declaration.name.getText());
      }
    }
  }
  return missing;
}

describe('the sdk', () => {
  it('has a doc comment on every public function, method and class', () => {
    expect(sources(SRC).flatMap(undocumented)).toEqual([]);
  });
});
