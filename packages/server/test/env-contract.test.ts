import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * One environment contract (docs/configuration.md): gateway-env.ts turns the environment into GatewayEnv, and the
 * entry points hand `process.env` to it whole. A module that reads a variable of its own would be a setting the
 * contract does not list, so this fails naming it.
 */
const packages = path.resolve(__dirname, '../..');
const ENTRY_POINTS = new Set(['server/src/main.ts', 'server/src/cli.ts']);
const CONTRACT = 'server/src/gateway-env.ts';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sources(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

const gatewaySources = readdirSync(packages)
  .filter((p) => p !== 'testkit' && p !== 'dashboard' && statSync(path.join(packages, p, 'src'), { throwIfNoEntry: false }))
  .flatMap((p) => sources(path.join(packages, p, 'src')))
  .map((file) => ({ file: path.relative(packages, file), text: readFileSync(file, 'utf8') }));

describe('the environment contract', () => {
  it('finds the sources it checks', () => {
    expect(gatewaySources.map((s) => s.file)).toEqual(expect.arrayContaining([CONTRACT, ...ENTRY_POINTS]));
  });

  it('no module but the contract and the entry points touches process.env', () => {
    const readers = gatewaySources.filter((s) => /process\.env\b/.test(s.text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')));
    expect(readers.map((s) => s.file).filter((f) => f !== CONTRACT && !ENTRY_POINTS.has(f))).toEqual([]);
  });

  it('the entry points only hand process.env to the contract, never read a variable themselves', () => {
    for (const file of ENTRY_POINTS) {
      const text = gatewaySources.find((s) => s.file === file)!.text;
      const uses = text.match(/[\w.]*\(?process\.env[\w.[\]'"]*/g) ?? [];
      expect({ file, uses: uses.filter((u) => !/^(envFromProcess|loggingFromEnv)\(process\.env$/.test(u)) }).toEqual({ file, uses: [] });
    }
  });
});
