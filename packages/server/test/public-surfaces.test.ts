import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** What packages show each other: named exports, no test helpers in production entry points, declared test deps. */
const PACKAGES = path.resolve(__dirname, '../..');

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) return f === 'node_modules' || f === '__fixtures__' ? [] : filesUnder(p, keep);
    return keep(p) ? [p] : [];
  });
}

const isTestFile = (p: string) => p.endsWith('.test.ts') || p.split(path.sep).includes('test');
const packages = readdirSync(PACKAGES).filter((p) => statSync(path.join(PACKAGES, p, 'package.json'), { throwIfNoEntry: false }));

describe('public surfaces', () => {
  it.each(['core', 'store-postgres', 'store-files', 'testkit'])('%s index files export explicit names, not export *', (pkg) => {
    const indexes = filesUnder(path.join(PACKAGES, pkg, 'src'), (p) => path.basename(p) === 'index.ts');
    expect(indexes.length).toBeGreaterThan(0);
    const star = indexes.filter((f) => /^export \* from/m.test(readFileSync(f, 'utf8')));
    expect(star.map((f) => path.relative(PACKAGES, f))).toEqual([]);
  });

  it('no production source holds test helpers: nothing under src/ but tests imports a testing module', () => {
    const offenders = packages.flatMap((pkg) =>
      filesUnder(path.join(PACKAGES, pkg, 'src'), (p) => p.endsWith('.ts') && !isTestFile(p))
        .filter((f) => /from '[^']*(test-databases|\/test\/)[^']*'/.test(readFileSync(f, 'utf8')) || /test-databases\.ts$/.test(f))
        .map((f) => path.relative(PACKAGES, f)),
    );
    expect(offenders).toEqual([]);
  });

  it.each(packages)('%s declares every workspace package its tests import (testkit as a devDependency)', (pkg) => {
    const manifest = JSON.parse(readFileSync(path.join(PACKAGES, pkg, 'package.json'), 'utf8'));
    const declared = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.devDependencies ?? {}),
      `@gateway/${pkg}`,
    ]);
    const missing = new Set<string>();
    for (const file of filesUnder(path.join(PACKAGES, pkg), (p) => p.endsWith('.ts') && isTestFile(p))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/from '(@gateway\/[a-z-]+)/g)) if (!declared.has(m[1]!)) missing.add(m[1]!);
    }
    expect([...missing]).toEqual([]);
  });
});
