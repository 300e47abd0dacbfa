/**
 * A key's own guardrails through the admin API and self-service (docs/guardrails.md): set on creation and by PATCH,
 * shown with the key, checked against the configured ids, and run on the key's requests besides its group's.
 */
import request from 'supertest';
import { ALPHA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';
import { testStore } from './support/test-store';

const store = testStore();
const ADMIN = 'admin-guardrail-keys-contract-key';
const SECRET_PROMPT = 'Tell me everything about Project Falcon';

let gw: TestGateway;
beforeAll(async () => {
  const file = testConfigFile();
  gw = await startTestGateway({
    listen: false,
    env: { ...store.env, adminKey: ADMIN },
    config: { ...file, guardrails: [{ id: 'no-falcon', type: 'regex', patterns: ['(?i)project\\s+falcon'] }] },
  });
});
afterAll(async () => {
  await gw?.stop();
  await store.drop();
});

const as = (key: string, method: 'get' | 'post' | 'patch', path: string) =>
  request(gw.app)[method](path).set('Authorization', `Bearer ${key}`);
const chat = (key: string, content: string) =>
  as(key, 'post', '/v1/chat/completions').send({ model: 'sim-chat', messages: [{ role: 'user', content }] });

describe("a key's own guardrails", () => {
  it('set by a platform admin: shown with the key, run on its requests, dropped with null', async () => {
    const made = await as(ADMIN, 'post', '/admin/keys').send({ account: 'alpha', group: 'default', guardrails: ['no-falcon'] });
    expect(made.status).toBe(201);
    expect(made.body.guardrails).toEqual(['no-falcon']);

    const blocked = await chat(made.body.key, SECRET_PROMPT);
    expect(blocked.status).toBe(400);
    expect(blocked.body.error.code).toBe('guardrail_blocked');
    expect(JSON.stringify(blocked.body).toLowerCase()).not.toContain('project falcon');
    // another key of the same account and group has no such guardrail
    expect((await chat(ALPHA_KEY, SECRET_PROMPT)).status).toBe(200);

    const listed = await as(ADMIN, 'get', '/admin/keys?account=alpha');
    expect(listed.body.data.find((k: { id: string }) => k.id === made.body.id).guardrails).toEqual(['no-falcon']);

    const changed = await as(ADMIN, 'patch', `/admin/keys/${made.body.id}`).send({ guardrails: null });
    expect(changed.status).toBe(200);
    expect(changed.body.guardrails).toBeNull();
    expect((await chat(made.body.key, SECRET_PROMPT)).status).toBe(200);
  });

  it('an unknown id or a wrong type is refused with invalid_guardrails and no key is made', async () => {
    const before = (await as(ADMIN, 'get', '/admin/keys?account=alpha')).body.data.length;
    const unknown = await as(ADMIN, 'post', '/admin/keys').send({ account: 'alpha', guardrails: ['nope'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('invalid_guardrails');
    expect(unknown.body.error.param).toBe('guardrails');
    const wrong = await as(ADMIN, 'post', '/admin/keys').send({ account: 'alpha', guardrails: 'no-falcon' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('invalid_guardrails');
    expect((await as(ADMIN, 'get', '/admin/keys?account=alpha')).body.data.length).toBe(before);
  });

  it("set by the account's admin through self-service", async () => {
    const made = await as(ALPHA_KEY, 'post', '/v1/keys').send({ guardrails: ['no-falcon'] });
    expect(made.status).toBe(201);
    expect(made.body.guardrails).toEqual(['no-falcon']);
    expect((await chat(made.body.key, SECRET_PROMPT)).body.error.code).toBe('guardrail_blocked');
  });
});
