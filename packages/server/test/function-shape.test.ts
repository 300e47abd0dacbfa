import path from 'node:path';
import * as ts from 'typescript';

/**
 * Two shape rules, read with the TypeScript compiler: the core reads in screens (no function over MAX_CORE_LINES
 * lines), and a logging function takes one object, not a row of positional arguments.
 */
const PACKAGES = path.resolve(__dirname, '../..');
const MAX_CORE_LINES = 60;
const MAX_LOGGING_PARAMS = 4;
/** log…, record…, observe…: the functions that write what happened (usage rows, attempts, request logs) */
const LOGGING_NAME = /^(log|record|observe)([A-Z_]|$)/;

/**
 * Long functions still owed, each with who reshapes it. An entry that no longer applies fails too, so the list only
 * shrinks.
 */
const KNOWN_LONG: Record<string, string> = {};

const sourcesOf = (dir: string) =>
  ts.sys
    .readDirectory(dir, ['.ts', '.tsx'], ['**/*.test.ts', '**/*.test.tsx', '**/__fixtures__/**', '**/node_modules/**'])
    .map((f) => path.resolve(f));

function parse(file: string, text = ts.sys.readFile(file) ?? ''): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
}

interface FunctionShape {
  name: string;
  line: number;
  lines: number;
  params: number;
}

/** Every function, method, constructor, accessor and arrow function of a file (signatures in interfaces included). */
function functionsOf(sf: ts.SourceFile): FunctionShape[] {
  const out: FunctionShape[] = [];
  const lineOf = (pos: number) => sf.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) {
      const start = lineOf(node.getStart(sf));
      out.push({ name: nameOf(node, sf), line: start, lines: lineOf(node.getEnd()) - start + 1, params: node.parameters.length });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function nameOf(node: ts.SignatureDeclaration, sf: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText(sf);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name)
    return parent.name.getText(sf);
  return '(anonymous)';
}

function tooLong(sf: ts.SourceFile, max = MAX_CORE_LINES): string[] {
  return functionsOf(sf)
    .filter((f) => f.lines > max)
    .map((f) => `${path.basename(sf.fileName)} ${f.name}`);
}

function positionalLoggers(sf: ts.SourceFile): string[] {
  return functionsOf(sf)
    .filter((f) => LOGGING_NAME.test(f.name) && f.params > MAX_LOGGING_PARAMS)
    .map((f) => `${path.relative(PACKAGES, sf.fileName)}:${f.line} ${f.name} takes ${f.params} parameters`);
}

describe('function shape', () => {
  it(`no function in core/src is longer than ${MAX_CORE_LINES} lines`, () => {
    const long = sourcesOf(path.join(PACKAGES, 'core/src')).flatMap((f) => tooLong(parse(f)));
    expect(long.filter((l) => !(l in KNOWN_LONG))).toEqual([]);
    expect(Object.keys(KNOWN_LONG).filter((k) => !long.includes(k))).toEqual([]);
  });

  it(`no logging function in packages/*/src takes more than ${MAX_LOGGING_PARAMS} positional parameters`, () => {
    const dirs = ts.sys.getDirectories(PACKAGES).map((p) => path.join(PACKAGES, p, 'src'));
    const files = dirs.filter((d) => ts.sys.directoryExists(d)).flatMap(sourcesOf);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => positionalLoggers(parse(f)))).toEqual([]);
  });

  it('the checks see what they should: a long method, a long arrow function, positional loggers', () => {
    const body = Array.from({ length: MAX_CORE_LINES }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const sf = parse(
      '/x/sample.ts',
      [
        `class C {\n  run() {\n${body}\n  }\n  short() {\n    return 1;\n  }\n}`,
        `const arrow = () => {\n${body}\n};`,
        'export function logRequest(a: 1, b: 2, c: 3, d: 4, e: 5) {}',
        'interface Port {\n  recordAttempt(a: 1, b: 2, c: 3, d: 4, e: 5): void;\n}',
        'function logger(a: 1, b: 2, c: 3, d: 4, e: 5) {}',
        'function recordUsage(row: { a: 1; b: 2; c: 3; d: 4; e: 5 }) {}',
      ].join('\n'),
    );
    expect(tooLong(sf)).toEqual(['sample.ts run', 'sample.ts arrow']);
    expect(positionalLoggers(sf).map((l) => l.replace(/^.*:\d+ /, ''))).toEqual([
      'logRequest takes 5 parameters',
      'recordAttempt takes 5 parameters',
    ]);
  });
});
