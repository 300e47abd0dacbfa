import net from 'node:net';
import { randomBytes } from 'node:crypto';
import knex from 'knex';
import request from 'supertest';
import { eventually } from '@gateway/testkit';
import type { GatewayEnv } from '../src/gateway-env';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

jest.setTimeout(180_000);

/** A receiver that accepts the connection, reads the request and never answers. */
async function startSilentReceiver() {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('data', () => undefined);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`,
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const config = () => testConfigFile({ providers: [{ id: 'sim', type: 'simulator', options: { queuedMs: 100, videoLatencyMs: 200 } }] });

const TASK = { model: 'sim-video-2.0', content: [{ type: 'text', text: 'a walk' }], duration: 4, resolution: '480p' };

/**
 * One account's 20 receivers accept and never answer; another account's one receiver answers at once. The second
 * account gets each of its events within 3 s of the status change, while the first's deliveries hang.
 */
function fairness(name: string, envOf: () => Partial<GatewayEnv>) {
  describe(`webhook delivery is fair between accounts (${name})`, () => {
    let gw: TestGateway;
    let fast: WebhookReceiver;
    const silent: Array<Awaited<ReturnType<typeof startSilentReceiver>>> = [];

    beforeAll(async () => {
      fast = await startWebhookReceiver();
      for (let i = 0; i < 20; i++) silent.push(await startSilentReceiver());
      gw = await startTestGateway({
        config: config(),
        listen: false,
        env: {
          ...envOf(),
          webhooks: {
            allowedHosts: [fast, ...silent].map((r) => new URL(r.url).host),
            retry: { firstDelayMs: 60_000, factor: 2, maxDelayMs: 60_000, windowMs: 3_600_000 },
            // longer than the test: a hanging delivery holds its slot throughout
            timeoutMs: 120_000,
            intervalMs: 100,
            perAccount: 4,
          },
        },
      });
      await gw.startBackground();
    });
    afterAll(async () => {
      for (const s of silent) await s.close();
      await gw?.stop();
      await fast?.close();
    });

    it('delivers the fast account each event within 3 s while the other account hangs', async () => {
      for (const s of silent) {
        const res = await request(gw.app).post('/v1/webhook_endpoints').set('Authorization', `Bearer ${ALPHA_KEY}`).send({ url: s.url });
        expect(res.status).toBe(200);
      }
      const made = await request(gw.app).post('/v1/webhook_endpoints').set('Authorization', `Bearer ${BETA_KEY}`).send({ url: fast.url });
      expect(made.status).toBe(200);
      const secret = made.body.secret as string;

      // the hanging account's deliveries are in flight first
      for (let i = 0; i < 3; i++)
        expect(
          (await request(gw.app).post('/v1/contents/generations/tasks').set('Authorization', `Bearer ${ALPHA_KEY}`).send(TASK)).status,
        ).toBe(200);
      await eventually(() => expect(silent.reduce((n, s) => n + s.accepted(), 0)).toBeGreaterThanOrEqual(4), 60_000);

      const betaTasks: string[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await request(gw.app).post('/v1/contents/generations/tasks').set('Authorization', `Bearer ${BETA_KEY}`).send(TASK);
        expect(res.status).toBe(200);
        betaTasks.push(res.body.id);
      }
      // every event of the fast account's tasks, through to completion
      await eventually(() => {
        const done = fast
          .verified(secret)
          .filter((e) => e.type === 'video.completed')
          .map((e) => e.data.id);
        expect(done.sort()).toEqual([...betaTasks].sort());
      }, 60_000);

      const rows: Array<{ event_id: string; event_at: string | Date }> = await gw.db
        .knex('webhook_deliveries')
        .where({ account_id: 'beta' })
        .select('event_id', 'event_at');
      expect(rows.length).toBeGreaterThanOrEqual(6); // queued, running, completed for each task
      const latencies = rows.map((r) => {
        const got = fast.received.find((x) => x.id === r.event_id);
        expect(got).toBeDefined();
        return got!.receivedAt - new Date(r.event_at).getTime();
      });
      expect(Math.max(...latencies)).toBeLessThan(3000);
      // and the hanging account never held more than its cap at once
      expect(silent.reduce((n, s) => n + s.accepted(), 0)).toBeLessThanOrEqual(4);
    });
  });
}

fairness('embedded', () => ({}));

const pgUrl = process.env.TEST_DATABASE_URL;
if (pgUrl) {
  const schema = `whfair_${randomBytes(6).toString('hex')}`;
  fairness('PostgreSQL', () => ({
    databaseUrl: pgUrl,
    databaseSchema: schema,
    inMemoryDatabase: false,
    secret: 'a-test-gateway-secret-of-enough-length',
  }));
  afterAll(async () => {
    const admin = knex({ client: 'pg', connection: pgUrl });
    await admin.raw(`drop schema if exists "${schema}" cascade`);
    await admin.destroy();
  });
}
