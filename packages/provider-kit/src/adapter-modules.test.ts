import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AdapterModules } from './adapter-modules';
import { createRedactor } from './secret-redactor';

/** The loader on its own: every refusal goes through the caller's refusal, with the entry's field and the module named. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'adapter-modules-kit-'));
  writeFileSync(
    path.join(dir, 'echo.mjs'),
    `export default {
      name: 'echo', contractVersion: '1.0.0', optionsSchema: { type: 'object', additionalProperties: false, properties: {} },
      create: () => ({ text: { generate: async () => { throw new Error('unused'); }, stream: async function* () {} }, close() {}, drain() {} }),
    };`,
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class Refused extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`${field}: ${problem}`);
  }
}
const refusal = (field: string, problem: string) => new Refused(field, problem);
const env = () => ({ dataDir: dir });

it('loads a module relative to its base directory, names it by its descriptor and builds guarded ports', async () => {
  const modules = new AdapterModules(dir);
  const entry = { id: 'e', module: './echo.mjs' };
  await modules.load({ providers: [entry] });
  expect(modules.nameOf(entry)).toBe('echo');
  const ports = modules.build(refusal, entry, 0, env(), createRedactor([]));
  expect(typeof ports.text?.generate).toBe('function');
  ports.close();
});

it('refuses, through the caller, options its schema rejects and a module the config file does not name', async () => {
  const modules = new AdapterModules(dir, new Set(['./echo.mjs']));
  const typo = { id: 'e', module: './echo.mjs', options: { bsaeUrl: 'x' } };
  const stranger = { id: 's', module: './other.mjs' };
  await modules.load({ providers: [typo, stranger] });
  expect(() => modules.build(refusal, typo, 2, env(), createRedactor([]))).toThrow(
    new Refused('providers.2.options', 'module "./echo.mjs" of provider "e": must NOT have additional properties "bsaeUrl"'),
  );
  expect(() => modules.build(refusal, stranger, 3, env(), createRedactor([]))).toThrow(
    /^providers\.3\.module: module "\.\/other\.mjs" of provider "s": not named in this instance's config file/,
  );
});
