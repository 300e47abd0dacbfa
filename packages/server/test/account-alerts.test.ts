import { randomBytes } from 'node:crypto';
import knex from 'knex';
import request from 'supertest';
import { describeWithService, eventually } from '@gateway/testkit';
import { KnexAccountAlerts } from '@gateway/store-postgres';
import { sweepAccountAlerts } from '@gateway/core';
import type { GatewayEnv } from '../src/gateway';
import { webhooksTo } from './support/webhook-settings';
import { startTestGateway, testConfigFile, withPricing, type TestGateway } from './support/test-gateway';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

/**
 * Budget and expiry alerts through the signed webhooks: a real gateway with an injected clock, a real receiver on
 * 127.0.0.1 that verifies each Standard Webhooks signature with the standardwebhooks package. `budget.threshold`
 * goes out once per threshold per budget period, `key.expiring` once, however many sweeps (and instances) run.
 */
jest.setTimeout(90_000);

const ADMIN = 'sk-admin-alerts-0001';
const HOUR = 3_600_000;
function alertSuite(storeEnv: Partial<GatewayEnv>) {
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  let gw: TestGateway;
  let rx: WebhookReceiver;
  let secret: string;
  /** generous: the machine may be loaded; it returns as soon as the check holds */
  const waitFor = (check: () => unknown) => eventually(check, 30_000);

  beforeAll(async () => {
    rx = await startWebhookReceiver();
    gw = await startTestGateway({
      listen: false,
      // five credits an image: spending is exact
      config: withPricing(testConfigFile(), { 'sim-image': { perImage: 5 } }),
      clock,
      env: {
        ...storeEnv,
        adminKey: ADMIN,
        keyCacheTtlMs: 0,
        quotaCacheMs: 0,
        webhooks: {
          ...webhooksTo(rx),
          alerts: { budgetThresholds: [50, 100], expiryLeadMs: 72 * HOUR, intervalMs: 50 },
        },
      },
    });
    await request(gw.app).post('/admin/accounts').set('Authorization', `Bearer ${ADMIN}`).send({ id: 'acme' });
    const endpoint = await request(gw.app)
      .post('/admin/accounts/acme/webhook_endpoints')
      .set('Authorization', `Bearer ${ADMIN}`)
      .send({ url: `${rx.url}/alerts`, events: ['budget.threshold', 'key.expiring'] });
    expect(endpoint.status).toBe(200);
    secret = endpoint.body.secret;
    await gw.startBackground();
  });
  afterAll(async () => {
    await gw?.stop();
    await rx?.close();
  });

  const admin = (method: 'post' | 'patch', p: string) => request(gw.app)[method](p).set('Authorization', `Bearer ${ADMIN}`);
  const events = (type: string, keyId: string) => rx.verified(secret, '/alerts').filter((e) => e.type === type && e.data.key.id === keyId);
  const spend = async (key: string, images: number) => {
    const res = await request(gw.app)
      .post('/v1/images/generations')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'sim-image', prompt: 'a cat', n: images });
    expect(res.status).toBe(200);
  };
  /** One more sweep with the current clock, then wait until the delivery loop has nothing pending. */
  async function settled() {
    await sweepAccountAlerts(new KnexAccountAlerts(gw.db.knex), { budgetThresholds: [50, 100], expiryLeadMs: 72 * HOUR }, clock());
    await waitFor(async () => {
      const [{ n }] = (await gw.db.knex('webhook_deliveries').where({ state: 'pending' }).count('* as n')) as [{ n: string }];
      expect(Number(n)).toBe(0);
    });
  }

  it('budget.threshold: once per threshold per budget period, signed, with the key and the numbers', async () => {
    const made = await admin('post', '/admin/keys').send({ account: 'acme', name: 'batch', budget: { credit_limit: 20, period: 'daily' } });
    expect(made.status).toBe(201);
    const [key, id] = [made.body.key as string, made.body.id as string];

    await spend(key, 1); // 5 of 20: below every threshold
    await settled();
    expect(events('budget.threshold', id)).toEqual([]);

    await spend(key, 1); // 10 of 20: 50 %
    await waitFor(() => expect(events('budget.threshold', id)).toHaveLength(1));
    const [half] = events('budget.threshold', id);
    expect(half).toMatchObject({
      object: 'event',
      type: 'budget.threshold',
      data: { account: 'acme', key: { id, name: 'batch' }, threshold_percent: 50, credit_limit: 20, credits_used: 10, period: 'daily' },
    });
    await spend(key, 1); // 15: still past 50 only, sent already
    await settled();
    expect(events('budget.threshold', id)).toHaveLength(1);

    await spend(key, 1); // 20: 100 %
    await waitFor(() => expect(events('budget.threshold', id).map((e) => e.data.threshold_percent)).toEqual([50, 100]));
    await settled();
    await settled();
    expect(events('budget.threshold', id)).toHaveLength(2);
    // the same event ids arrive as webhook-id, each once
    const ids = rx.received.filter((r) => r.path === '/alerts').map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);

    // the next budget period starts from zero: crossing 50 % again is announced again, in that period
    offset += 24 * HOUR;
    await settled();
    expect(events('budget.threshold', id)).toHaveLength(2);
    await spend(key, 2);
    await waitFor(() => expect(events('budget.threshold', id)).toHaveLength(3));
    const next = events('budget.threshold', id)[2];
    expect(next!.data).toMatchObject({ threshold_percent: 50, credits_used: 10 });
    expect(Date.parse(next!.data.period_start)).toBeGreaterThan(Date.parse(half!.data.period_start));
  });

  it('key.expiring: once, when the key comes within the lead time of its expiry', async () => {
    const expiresAt = new Date(clock().getTime() + 100 * HOUR).toISOString();
    const made = await admin('post', '/admin/keys').send({ account: 'acme', name: 'ci', expires_at: expiresAt });
    expect(made.status).toBe(201);
    await settled();
    expect(events('key.expiring', made.body.id)).toEqual([]); // 100 h away: beyond the 72 h lead

    offset += 30 * HOUR; // 70 h away
    await waitFor(() => expect(events('key.expiring', made.body.id)).toHaveLength(1));
    expect(events('key.expiring', made.body.id)[0]).toMatchObject({
      type: 'key.expiring',
      data: { account: 'acme', key: { id: made.body.id, name: 'ci' }, expires_at: expiresAt },
    });
    offset += 10 * HOUR;
    await settled();
    await settled();
    expect(events('key.expiring', made.body.id)).toHaveLength(1);
  });

  it('sends each alert once even when several sweeps race (several instances)', async () => {
    const made = await admin('post', '/admin/keys').send({ account: 'acme', budget: { credit_limit: 10, period: null } });
    await spend(made.body.key, 2); // 100 %
    const store = new KnexAccountAlerts(gw.db.knex);
    const opts = { budgetThresholds: [50, 100], expiryLeadMs: 0 };
    await Promise.all([1, 2, 3, 4].map(() => sweepAccountAlerts(store, opts, clock())));
    await settled();
    expect(
      events('budget.threshold', made.body.id)
        .map((e) => e.data.threshold_percent)
        .sort(),
    ).toEqual([100, 50]);
    const sent = await gw.db.knex('webhook_alerts_sent').where({ key_id: made.body.id });
    expect(sent).toHaveLength(2);
  });

  it('an endpoint not subscribed to alerts receives none', async () => {
    const tasksOnly = await admin('post', '/admin/accounts/acme/webhook_endpoints').send({
      url: `${rx.url}/tasks-only`,
      events: ['video.completed'],
    });
    expect(tasksOnly.status).toBe(200);
    const made = await admin('post', '/admin/keys').send({ account: 'acme', budget: { credit_limit: 5, period: null } });
    await spend(made.body.key, 1);
    await waitFor(() => expect(events('budget.threshold', made.body.id)).toHaveLength(2));
    expect(rx.received.filter((r) => r.path === '/tasks-only')).toEqual([]);
  });
}

describe('budget and expiry alerts on the embedded store', () => alertSuite({}));

describeWithService('TEST_DATABASE_URL', 'budget and expiry alerts on PostgreSQL', (pgUrl) => {
  const schema = `alerts_${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    const db = knex({ client: 'pg', connection: pgUrl });
    await db.raw(`drop schema if exists "${schema}" cascade`);
    await db.destroy();
  });
  alertSuite({ databaseUrl: pgUrl, databaseSchema: schema, inMemoryDatabase: false, secret: 'alerts-suite-gateway-secret-01' });
});
