import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Each package's index.ts exports what other packages import from it, no more (issue 24, "a smaller public surface"). */
const ROOT = path.resolve(__dirname, '../../..');
const PACKAGES = path.join(ROOT, 'packages');

/**
 * Names outside code uses though no package here imports them: the adapter contract that provider-kit documents for
 * adapters written outside this repository (ADAPTER-CONTRACT-CHANGELOG.md, adapter-templates).
 */
const PUBLIC_FOR_OUTSIDE: Record<string, string[]> = {
  'provider-kit': ['ADAPTER_CONTRACT_VERSION', 'AdapterDescriptor', 'AdapterEnvironment', 'AdapterKit'],
};

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sourceFiles(file);
    return /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts') ? [file] : [];
  });
}

const parse = (file: string, text = readFileSync(file, 'utf8')) => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);

/** The names a module exports, following `export * from './x'` into the package's own files. */
function exportedNames(file: string): string[] {
  const names: string[] = [];
  const isExported = (node: ts.Node) =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of parse(file).statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.exportClause && ts.isNamedExports(statement.exportClause)) {
        names.push(...statement.exportClause.elements.map((e) => e.name.text));
      } else if (!statement.exportClause && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        names.push(...exportedNames(path.resolve(path.dirname(file), `${statement.moduleSpecifier.text}.ts`)));
      }
    } else if (isExported(statement)) {
      if (ts.isVariableStatement(statement)) {
        for (const d of statement.declarationList.declarations) if (ts.isIdentifier(d.name)) names.push(d.name.text);
      } else if ('name' in statement && statement.name && ts.isIdentifier(statement.name as ts.Node)) {
        names.push((statement.name as ts.Identifier).text);
      }
    }
  }
  return names;
}

/**
 * Every name a file takes from `@gateway/<pkg>`: named imports (multi-line too), re-exports, `import('…').Name` types,
 * `const { a } = await import('…')`. A namespace use (`import * as`, `require`, `typeof import`) counts the names the
 * file reads as properties (`core.name`, `Core['name']`).
 */
function importedNames(file: string, text?: string): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>();
  const namespaces = new Set<string>();
  const properties = new Set<string>();
  // bench/ and scripts/ reach a package's index by path ('../packages/core/src')
  const pkgOf = (specifier: string) =>
    /^@gateway\/([a-z0-9-]+)$/.exec(specifier)?.[1] ??
    (specifier.startsWith('.')
      ? /^packages\/([a-z0-9-]+)\/src(\/index)?$/.exec(path.relative(ROOT, path.resolve(path.dirname(file), specifier)))?.[1]
      : undefined);
  const add = (specifier: string, name: string) => {
    const pkg = pkgOf(specifier);
    if (pkg) used.set(pkg, (used.get(pkg) ?? new Set()).add(name));
  };
  const addNamespace = (specifier: string) => {
    const pkg = pkgOf(specifier);
    if (pkg) namespaces.add(pkg);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const bindings = node.importClause?.namedBindings;
      if (node.importClause?.name) add(node.moduleSpecifier.text, 'default');
      if (bindings && ts.isNamedImports(bindings))
        for (const e of bindings.elements) add(node.moduleSpecifier.text, (e.propertyName ?? e.name).text);
      if (bindings && ts.isNamespaceImport(bindings)) addNamespace(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (node.exportClause && ts.isNamedExports(node.exportClause)) {
        for (const e of node.exportClause.elements) add(node.moduleSpecifier.text, (e.propertyName ?? e.name).text);
      } else addNamespace(node.moduleSpecifier.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      if (node.qualifier) add(node.argument.literal.text, rootName(node.qualifier));
      else addNamespace(node.argument.literal.text);
    } else if (ts.isCallExpression(node) && isModuleCall(node) && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      const specifier = node.arguments[0].text;
      const holder = ts.isAwaitExpression(node.parent) ? node.parent.parent : node.parent;
      if (ts.isVariableDeclaration(holder) && ts.isObjectBindingPattern(holder.name)) {
        for (const e of holder.name.elements) {
          const name = e.propertyName ?? e.name;
          if (ts.isIdentifier(name)) add(specifier, name.text);
        }
      } else addNamespace(specifier);
    } else if (ts.isPropertyAccessExpression(node)) {
      properties.add(node.name.text);
    } else if (ts.isIndexedAccessTypeNode(node) && ts.isLiteralTypeNode(node.indexType) && ts.isStringLiteral(node.indexType.literal)) {
      properties.add(node.indexType.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file, text));
  for (const pkg of namespaces) used.set(pkg, new Set([...(used.get(pkg) ?? []), ...properties]));
  return used;
}

const isModuleCall = (node: ts.CallExpression) =>
  node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require');

function rootName(q: ts.EntityName): string {
  return ts.isIdentifier(q) ? q.text : rootName(q.left);
}

function unusedExports(): Record<string, string[]> {
  const packages = readdirSync(PACKAGES).filter((p) => existsSync(path.join(PACKAGES, p, 'src/index.ts')));
  const files = [PACKAGES, path.join(ROOT, 'bench'), path.join(ROOT, 'scripts')].flatMap(sourceFiles);
  const usedBy = new Map<string, Set<string>>();
  for (const file of files) {
    const own = path.relative(PACKAGES, file).split(path.sep)[0];
    for (const [pkg, names] of importedNames(file)) {
      if (pkg === own) continue;
      const set = usedBy.get(pkg) ?? new Set();
      names.forEach((n) => set.add(n));
      usedBy.set(pkg, set);
    }
  }
  return Object.fromEntries(
    packages.map((pkg) => {
      const used = usedBy.get(pkg) ?? new Set();
      const keep = new Set(PUBLIC_FOR_OUTSIDE[pkg] ?? []);
      const exported = exportedNames(path.join(PACKAGES, pkg, 'src/index.ts'));
      return [pkg, exported.filter((n) => !used.has(n) && !keep.has(n))];
    }),
  );
}

if (process.env.SURFACE_REPORT) console.log(JSON.stringify(unusedExports(), null, 1));

describe('public surface', () => {
  it('finds names in multi-line imports, re-exports and import() types', () => {
    const probe = [
      "import {\n  Alpha,\n  type Beta as B,\n} from '@gateway/core';",
      "export { Gamma } from '@gateway/core';",
      "let d: import('@gateway/core').Delta;",
      "import { Other } from '@gateway/http-kit';",
      "const { Epsilon } = await import('@gateway/core');",
      "type Kit = typeof import('@gateway/provider-kit'); type Z = Kit['Zeta'];",
    ].join('\n');
    const names = importedNames('probe.ts', probe);
    expect([...(names.get('core') ?? [])].sort()).toEqual(['Alpha', 'Beta', 'Delta', 'Epsilon', 'Gamma']);
    expect([...(names.get('provider-kit') ?? [])]).toEqual(['Zeta']);
    expect([...(names.get('http-kit') ?? [])]).toEqual(['Other']);
  });

  it('every name a package index exports is imported by another package (or listed as public for outside adapters)', () => {
    const unused = Object.entries(unusedExports()).filter(([, names]) => names.length > 0);
    expect(Object.fromEntries(unused)).toEqual({});
  });
});
