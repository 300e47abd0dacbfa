import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import { describeWithService, eventually } from '@gateway/testkit';
import { openDatabase } from '@gateway/store-postgres';
import { bootstrapConfigKeys } from '../src/bootstrap';
import { buildConfig } from '../src/config';
import { createGateway, type Gateway, type GatewayEnv } from '../src/gateway';
import { createLogger } from '@gateway/observability';
import { BETA_KEY, testConfigFile } from './support/test-gateway';
import { waitForTask } from './support/video-gateways';

/**
 * Instances on one PostgreSQL whose content stores cannot serve each other's files are found at start-up: a local
 * DATA_DIR per instance makes /readyz 503 with the reason (and one error line), CONTENT_STORE=postgres is ready and a
 * video rendered by one instance downloads, with Range, from the other, and so does an image URL.
 */
jest.setTimeout(120_000);

describeWithService('TEST_DATABASE_URL', 'content shared across instances (two gateways on one Postgres schema)', (pgUrl) => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const dirs: string[] = [];
  const running: Gateway[] = [];

  async function start(env: Partial<GatewayEnv>): Promise<{ gw: Gateway; lines: Array<Record<string, unknown>> }> {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-content-'));
    dirs.push(dataDir);
    const lines: Array<Record<string, unknown>> = [];
    const stream = new PassThrough();
    stream.on('data', (l: Buffer) =>
      lines.push(
        ...l
          .toString()
          .trim()
          .split('\n')
          .map((s) => JSON.parse(s)),
      ),
    );
    const config = buildConfig(
      '(test)',
      testConfigFile({ providers: [{ id: 'sim', type: 'simulator', options: { queuedMs: 50, videoLatencyMs: 100 } }] }),
    );
    const gw = await createGateway(
      { port: 0, host: '127.0.0.1', dataDir, publicBaseUrl: 'https://gateway.test', databaseUrl: pgUrl, databaseSchema: schema, ...env },
      { config, logger: createLogger('info', { stream, format: 'json' }) },
    );
    await bootstrapConfigKeys(gw.stores, gw.config);
    running.push(gw);
    return { gw, lines };
  }
  const stop = async (gw: Gateway) => {
    running.splice(running.indexOf(gw), 1);
    await gw.close();
  };

  afterEach(async () => {
    for (const gw of running.splice(0)) await gw.close();
  });
  afterAll(async () => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    const db = await openDatabase({ databaseUrl: pgUrl, schema });
    await db.knex.raw(`drop schema if exists "${schema}" cascade`);
    await db.close();
  });

  it('file stores in different DATA_DIRs: both instances see it, /readyz says why, one error line each', async () => {
    const a = await start({ contentProbeIntervalMs: 200 });
    expect((await request(a.gw.app).get('/readyz')).body).toMatchObject({ status: 'ready', checks: { content_store: 'ok' } });

    const b = await start({ contentProbeIntervalMs: 200 });
    // the second instance knows before it serves anything
    const readyB = await request(b.gw.app).get('/readyz');
    expect(readyB.status).toBe(503);
    expect(readyB.body.checks.content_store).toMatch(
      /^not_shared: cannot read the content of .+ \(content at file:.+\); this instance keeps it at file:/,
    );
    expect(readyB.body.checks.content_store).toContain(path.join(dirs[0]!, 'content'));
    // the first finds out on its next round
    await eventually(async () => expect((await request(a.gw.app).get('/readyz')).status).toBe(503));
    for (const { lines } of [a, b]) {
      const errors = lines.filter((l) => l.message === 'content store is not shared by the instances on this database');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ level: 'error', problem: expect.stringContaining('not_shared') });
    }

    // the odd one out leaves (withdrawing its probe): the other is ready again
    await stop(b.gw);
    await eventually(async () => expect((await request(a.gw.app).get('/readyz')).body.checks.content_store).toBe('ok'));
  });

  it('CONTENT_STORE=postgres: both ready; a video (whole and by Range) and an image URL made through one are served by the other', async () => {
    const a = await start({ contentStore: 'postgres' });
    const b = await start({ contentStore: 'postgres' });
    for (const gw of [a.gw, b.gw])
      expect((await request(gw.app).get('/readyz')).body).toMatchObject({ status: 'ready', checks: { content_store: 'ok' } });
    expect(a.lines).toContainEqual(expect.objectContaining({ message: 'content store', store: 'postgres' }));

    await a.gw.startBackground();
    const auth = { Authorization: `Bearer ${BETA_KEY}` };
    const created = await request(a.gw.app).post('/v1/videos').set(auth).send({ model: 'sim-video-2.0', prompt: 'a', seconds: '4' });
    expect(created.status).toBe(200);
    expect(await waitForTask(a.gw.app, created.body.id, BETA_KEY)).toBe('succeeded');

    const whole = await request(b.gw.app).get(`/v1/videos/${created.body.id}/content`).set(auth).buffer(true);
    expect(whole.status).toBe(200);
    const size = Number(whole.headers['content-length']);
    expect(size).toBeGreaterThan(100);
    const part = await request(b.gw.app).get(`/v1/videos/${created.body.id}/content`).set(auth).set('Range', 'bytes=10-49').buffer(true);
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-49/${size}`);
    expect(Buffer.from(part.body).equals(Buffer.from(whole.body).subarray(10, 50))).toBe(true);

    // an image URL handed out by one instance is served by the other
    const image = await request(a.gw.app)
      .post('/v1/images/generations')
      .set(auth)
      .send({ model: 'sim-image', prompt: 'x', response_format: 'url' });
    expect(image.status).toBe(200);
    const fetched = await request(b.gw.app).get(new URL(image.body.data[0].url).pathname).buffer(true);
    expect(fetched.status).toBe(200);
    expect(fetched.headers['content-type']).toMatch(/^image\//);
  });
});
