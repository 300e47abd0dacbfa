import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from '../support/test-gateway';

/**
 * Outside adapters through the admin API: an entry's options are checked against the module's schema on every
 * change, and a change may name only modules the config file names, so the admin API never runs code from elsewhere.
 */
const ADMIN = 'sk-admin-test-0001';
let dir: string;
let gw: TestGateway;
const ADAPTER = `export default {
  contractVersion: '1.0.0',
  optionsSchema: { type: 'object', additionalProperties: false, properties: { greeting: { type: 'string' } } },
  create: (entry) => ({
    text: {
      generate: async () => ({ content: [{ type: 'text', text: entry.options.greeting ?? 'hi' }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } }),
      stream: async function* () {},
    },
    close() {},
    drain() {},
  }),
};`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'admin-module-'));
  writeFileSync(path.join(dir, 'adapter.mjs'), ADAPTER);
  // a module whose import alone would leave a mark
  writeFileSync(
    path.join(dir, 'elsewhere.mjs'),
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(path.join(dir, 'ran'))}, 'x');\nexport default {};`,
  );
  const base = testConfigFile();
  gw = await startTestGateway({
    listen: false,
    env: { adminKey: ADMIN, secret: 'gateway-secret-for-admin-tests' },
    config: {
      ...base,
      providers: [...base.providers, { id: 'acme', module: path.join(dir, 'adapter.mjs'), options: { greeting: 'hello' } }],
      models: [...base.models, { id: 'acme-chat', kind: 'text', provider: 'acme' }],
    },
  });
});
afterAll(async () => {
  await gw?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const admin = (method: 'put' | 'get', p: string) => request(gw.app)[method](p).set('Authorization', `Bearer ${ADMIN}`);
const ask = () =>
  request(gw.app)
    .post('/v1/chat/completions')
    .set('Authorization', `Bearer ${BETA_KEY}`)
    .send({ model: 'acme-chat', messages: [{ role: 'user', content: 'hi' }] });

it("changes a module entry's options, checked against the module's schema", async () => {
  const bad = await admin('put', '/admin/providers/acme').send({ module: path.join(dir, 'adapter.mjs'), options: { greting: 'typo' } });
  expect(bad.status).toBe(400);
  expect(bad.body.error.code).toBe('invalid_config_change');
  expect(bad.body.error.message).toMatch(
    /providers\.\d+\.options: module ".*" of provider ".*": must NOT have additional properties "greting"/,
  );
  expect((await ask()).body.choices[0].message.content).toBe('hello');
  const ok = await admin('put', '/admin/providers/acme').send({ module: path.join(dir, 'adapter.mjs'), options: { greeting: 'bonjour' } });
  expect(ok.status).toBe(200);
  expect((await ask()).body.choices[0].message.content).toBe('bonjour');
});

it('refuses a module the config file does not name, without importing it', async () => {
  const res = await admin('put', '/admin/providers/other').send({ module: path.join(dir, 'elsewhere.mjs') });
  expect(res.status).toBe(400);
  expect(res.body.error.message).toContain("not named in this instance's config file");
  expect(existsSync(path.join(dir, 'ran'))).toBe(false);
});
