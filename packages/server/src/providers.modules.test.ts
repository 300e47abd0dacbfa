import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildConfig, type GatewayConfigFile } from './config';
import { loadProviders } from './providers';

/** Loading an outside adapter: each refusal is one line naming the entry's field. */
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'adapter-modules-'));
  const adapter = (version: string) => `export default {
    contractVersion: ${JSON.stringify(version)},
    optionsSchema: { type: 'object', required: ['baseUrl'], additionalProperties: false, properties: { baseUrl: { type: 'string' } } },
    create: (entry, env) => ({ text: { generate: async () => ({ id: 'answer-for-' + entry.apiKey, model: 'm', content: [{ type: 'text', text: (entry.apiKey ?? '').length + ' ' + env.kit.contractVersion }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 }, warnings: [] }), stream: async function* () {} }, close() {}, drain() {} }),
  };`;
  writeFileSync(path.join(dir, 'good.mjs'), adapter('1.0.0'));
  writeFileSync(path.join(dir, 'future.mjs'), adapter('2.0.0'));
  writeFileSync(path.join(dir, 'newer-minor.mjs'), adapter('1.9.0'));
  writeFileSync(path.join(dir, 'not-a-descriptor.mjs'), 'export default 42;');
  // an npm package in node_modules next to the config file, named by its package name
  mkdirSync(path.join(dir, 'node_modules', 'acme-adapter'), { recursive: true });
  cpSync(path.join(dir, 'good.mjs'), path.join(dir, 'node_modules', 'acme-adapter', 'adapter.mjs'));
  writeFileSync(
    path.join(dir, 'node_modules', 'acme-adapter', 'package.json'),
    JSON.stringify({ name: 'acme-adapter', type: 'module', exports: './adapter.mjs' }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (entry: Record<string, unknown>): GatewayConfigFile => ({
  providers: [{ id: 'sim', type: 'simulator' }, { id: 'acme', ...entry } as GatewayConfigFile['providers'][number]],
  models: [{ id: 'acme-chat', kind: 'text', provider: 'acme' }],
  groups: [{ name: 'all', models: ['*'] }],
});
const load = (entry: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
  loadProviders(buildConfig('gateway.json', file(entry), env), { dataDir: dir }, dir);
const ctx = { signal: new AbortController().signal, requestId: 't' };
const ask = { model: 'm', messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };

it.each([
  ['./good.mjs', 'a path relative to the config file'],
  ['acme-adapter', 'an npm package name'],
])('loads %s (%s) and hands it the kit', async (module) => {
  const registry = await load({ module, apiKey: 'sk-entry-key-secret-0123456789', options: { baseUrl: 'http://127.0.0.1:9' } });
  const r = await registry.text('acme')!.generate(ask, ctx);
  // the kit's version and the entry's key arrived; the key is redacted from the metadata the adapter hands back
  expect(r.content).toEqual([{ type: 'text', text: '30 1.0.0' }]);
  expect(r.id).toBe('answer-for-[redacted]');
  expect(registry.typeOf('acme')).toBe(module === './good.mjs' ? 'good' : 'acme-adapter');
  registry.close();
});

it('resolves an env: key for a module entry like for a built-in', async () => {
  const env = { ACME_KEY: 'sk-from-the-environment-0123' };
  const registry = await load({ module: path.join(dir, 'good.mjs'), apiKey: 'env:ACME_KEY', options: { baseUrl: 'http://x' } }, env);
  const r = await registry.text('acme')!.generate(ask, ctx);
  expect(r.content).toEqual([{ type: 'text', text: '28 1.0.0' }]);
  expect(r.id).toBe('answer-for-[redacted]');
  registry.close();
});

it.each([
  [
    { module: './future.mjs', options: { baseUrl: 'http://x' } },
    /^Invalid gateway config gateway\.json: providers\.1\.module: module "\.\/future\.mjs" of provider "acme": written for adapter contract 2\.0\.0; this gateway speaks 1\.0\.0/,
  ],
  [{ module: './newer-minor.mjs', options: { baseUrl: 'http://x' } }, /providers\.1\.module: .*adapter contract 1\.9\.0/],
  [{ module: './not-a-descriptor.mjs' }, /providers\.1\.module: .*default export is not an adapter descriptor/],
  [{ module: './missing.mjs' }, /providers\.1\.module: module "\.\/missing\.mjs" of provider "acme": cannot load the module \(/],
  [
    { module: './good.mjs', options: {} },
    /providers\.1\.options: module "\.\/good\.mjs" of provider "acme": must have required property 'baseUrl'$/,
  ],
  [
    { module: './good.mjs', options: { baseUrl: 'http://x', baseUlr: 'typo' } },
    /providers\.1\.options: module "\.\/good\.mjs" of provider "acme": must NOT have additional properties "baseUlr"$/,
  ],
])('refuses %j in one line', async (entry, message) => {
  const e = await load(entry).then(
    () => undefined,
    (err: Error) => err,
  );
  expect(e?.message).toMatch(message);
  expect(e?.message).not.toContain('\n');
});

it('needs exactly one of type and module', () => {
  expect(() => buildConfig('gateway.json', file({ type: 'simulator', module: './good.mjs' }))).toThrow(
    'providers.1: a provider needs exactly one of "type" (a built-in) and "module" (an outside adapter)',
  );
  expect(() => buildConfig('gateway.json', file({}))).toThrow('providers.1: a provider needs exactly one of');
});

it('a reload that breaks a module entry fails as a whole and keeps serving the previous providers', async () => {
  const registry = await load({ module: './good.mjs', options: { baseUrl: 'http://x' } });
  const before = registry.text('acme');
  const next = buildConfig('database catalogue', file({ module: './good.mjs', options: { baseUrl: 42 } }), {});
  await registry.prepare(next);
  expect(() => registry.apply(next)).toThrow(
    'Invalid gateway config database catalogue: providers.1.options.baseUrl: module "./good.mjs" of provider "acme": must be string',
  );
  expect(registry.text('acme')).toBe(before);
  registry.close();
});

it('a catalogue change may name only the modules of the config file: the admin API cannot load code from elsewhere', async () => {
  const registry = await load({ module: './good.mjs', options: { baseUrl: 'http://x' } });
  const next = buildConfig('admin change', file({ module: './newer-minor.mjs', options: { baseUrl: 'http://x' } }), {});
  await expect(registry.check(next)).rejects.toThrow(
    `providers.1.module: module "./newer-minor.mjs" of provider "acme": not named in this instance's config file (GATEWAY_CONFIG); add it there and restart`,
  );
  expect(registry.text('acme')).toBeDefined();
  registry.close();
});
