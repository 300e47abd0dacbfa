/**
 * Upstream keys at rest and through the admin API: `env:NAME` is stored as the reference, a config-file key
 * is never copied into the database, an admin key is sealed (AES-256-GCM under GATEWAY_SECRET) and write-only,
 * and an admin may only name the environment variables the operator meant for keys.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startFakeUpstream, type FakeUpstream } from '@gateway/testkit';
import { ALPHA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

const ADMIN = 'sk-admin-secrets-0001';
const SECRET = 'gateway-secret-9d8c7b6a5f4e';
const FILE_KEY = 'sk-file-literal-Hq2Wm8Zp';
const ENV_KEY = 'sk-from-env-Lr5Tn1Vc';
const ADMIN_KEY_VALUE = 'sk-admin-written-Bx4Ky7Qs';
/** the gateway's environment: the key its config file references, and a variable not meant for keys */
const VARIABLES = { ...process.env, SECRETS_REF_KEY: ENV_KEY, OTHER_PROCESS_VAR: 'not-for-admins' };

// each test opens PGlite on disk, some twice (a restart on the same directory): seconds each on a loaded machine
jest.setTimeout(120_000);

let upstream: FakeUpstream;
const dirs: string[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream('openai', { apiKey: ADMIN_KEY_VALUE });
});
afterAll(async () => {
  await upstream.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A gateway on a data dir of its own (so a second one can restart on it), its file naming one env key and one literal key. */
async function gateway(
  env: { secret?: string; allowedEnv?: string },
  dataDir?: string,
  variables: NodeJS.ProcessEnv = VARIABLES,
): Promise<TestGateway> {
  const dir = dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'gw-admin-secrets-'));
  if (!dataDir) dirs.push(dir);
  const base = testConfigFile();
  return startTestGateway({
    listen: false,
    env: { adminKey: ADMIN, dataDir: dir, inMemoryDatabase: false, variables, ...env },
    config: {
      ...base,
      providers: [
        ...base.providers,
        { id: 'from-env', type: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'env:SECRETS_REF_KEY' },
        { id: 'from-file', type: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', apiKey: FILE_KEY },
      ],
    },
  });
}

const admin = (gw: TestGateway, method: 'get' | 'put', p: string) => request(gw.app)[method](p).set('Authorization', `Bearer ${ADMIN}`);
const provider = (apiKey: string) => ({ type: 'openai-compatible', baseUrl: upstream.url, apiKey });
const storedProviders = async (gw: TestGateway) => JSON.stringify(await gw.db.knex('config_entries').where({ kind: 'provider' }));

describe('provider keys at rest', () => {
  it('the database holds env references as references and no config-file or admin key in clear; admins read (set)', async () => {
    const gw = await gateway({ secret: SECRET });
    try {
      const put = await admin(gw, 'put', '/admin/providers/written').send(provider(ADMIN_KEY_VALUE));
      expect(put.status).toBe(200);
      const stored = await storedProviders(gw);
      expect(stored).toContain('env:SECRETS_REF_KEY');
      expect(stored).toContain('enc:v1:');
      for (const s of [ENV_KEY, FILE_KEY, ADMIN_KEY_VALUE]) expect({ s, stored: stored.includes(s) }).toEqual({ s, stored: false });
      const list = await admin(gw, 'get', '/admin/providers');
      const shown = Object.fromEntries(list.body.data.map((p: { id: string; apiKey?: string }) => [p.id, p.apiKey]));
      expect(shown).toMatchObject({ 'from-env': 'env:SECRETS_REF_KEY', 'from-file': '(set)', written: '(set)' });
      expect(JSON.stringify([list.body, put.body])).not.toMatch(new RegExp(`${ENV_KEY}|${FILE_KEY}|${ADMIN_KEY_VALUE}`));
    } finally {
      await gw.stop();
    }
  });

  it('a sealed key works upstream, survives "(set)" sent back and a restart with the same secret; another secret starts without it', async () => {
    const gw = await gateway({ secret: SECRET });
    const dataDir = gw.dataDir;
    const chat = () =>
      request(gw.app)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${ALPHA_KEY}`)
        .send({ model: 'via-admin', messages: [{ role: 'user', content: 'hi' }] });
    try {
      expect((await admin(gw, 'put', '/admin/providers/written').send(provider(ADMIN_KEY_VALUE))).status).toBe(200);
      expect(
        (await admin(gw, 'put', '/admin/models/via-admin').send({ kind: 'text', provider: 'written', upstreamModel: 'gpt-4o-mini' }))
          .status,
      ).toBe(200);
      expect((await admin(gw, 'put', '/admin/groups/default').send({ models: ['*'] })).status).toBe(200);
      expect((await chat()).status).toBe(200);
      // read back and sent again: the key is kept, not replaced by the placeholder
      expect((await admin(gw, 'put', '/admin/providers/written').send(provider('(set)'))).status).toBe(200);
      expect((await chat()).status).toBe(200);
      expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${ADMIN_KEY_VALUE}`);
    } finally {
      await gw.close();
    }
    const again = await gateway({ secret: SECRET }, dataDir);
    await again.close();
    // another secret: the gateway starts, the key is not used (a warning names it: secret-rotation.test.ts)
    const other = await gateway({ secret: 'another-secret-entirely' }, dataDir);
    try {
      const seen = upstream.requests.length;
      await request(other.app)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${ALPHA_KEY}`)
        .send({ model: 'via-admin', messages: [{ role: 'user', content: 'hi' }] });
      expect(upstream.requests.slice(seen).every((r) => r.headers.authorization !== `Bearer ${ADMIN_KEY_VALUE}`)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it('without GATEWAY_SECRET a literal admin key is refused with a clear message; env references still work', async () => {
    const gw = await gateway({});
    try {
      const put = await admin(gw, 'put', '/admin/providers/written').send(provider(ADMIN_KEY_VALUE));
      expect(put.status).toBe(400);
      expect(put.body.error).toMatchObject({ code: 'secret_required', param: 'apiKey' });
      expect(put.body.error.message).toContain('GATEWAY_SECRET');
      expect(await storedProviders(gw)).not.toContain(ADMIN_KEY_VALUE);
      expect((await admin(gw, 'put', '/admin/providers/by-ref').send(provider('env:SECRETS_REF_KEY'))).status).toBe(200);
    } finally {
      await gw.stop();
    }
  });
});

describe('env references through the admin API', () => {
  it.each([
    ['', ['DATABASE_URL', 'GATEWAY_SECRET', 'OTHER_PROCESS_VAR']],
    ['DATABASE_URL, GATEWAY_*, UPSTREAM_*, *', ['DATABASE_URL', 'GATEWAY_SECRET', 'GATEWAY_ADMIN_KEY', 'REDIS_URL']],
  ])('GATEWAY_ALLOWED_ENV=%j: the gateway’s own secrets and unlisted variables are refused', async (allowedEnv, names) => {
    const gw = await gateway({ secret: SECRET, allowedEnv });
    try {
      for (const name of names) {
        const put = await admin(gw, 'put', '/admin/providers/probe').send(provider(`env:${name}`));
        expect({ name, status: put.status, error: put.body.error }).toMatchObject({
          name,
          status: 400,
          error: { code: 'env_not_allowed', param: 'apiKey' },
        });
      }
      expect(await storedProviders(gw)).not.toContain('probe');
    } finally {
      await gw.stop();
    }
  });

  it('the config file’s own references and the operator’s allowed names or prefixes are accepted', async () => {
    const gw = await gateway({ secret: SECRET, allowedEnv: 'OTHER_PROCESS_VAR, UPSTREAM_*' }, undefined, {
      ...VARIABLES,
      UPSTREAM_EXTRA_KEY: 'sk-extra',
    });
    try {
      for (const name of ['SECRETS_REF_KEY', 'OTHER_PROCESS_VAR', 'UPSTREAM_EXTRA_KEY'])
        expect({
          name,
          status: (await admin(gw, 'put', `/admin/providers/p-${name.toLowerCase()}`).send(provider(`env:${name}`))).status,
        }).toEqual({
          name,
          status: 200,
        });
    } finally {
      await gw.stop();
    }
  });
});
