import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { describeWithService, eventually } from '@gateway/testkit';
import { openDatabase } from '@gateway/store-postgres';
import { bootstrapConfigKeys } from '../../src/bootstrap';
import type { GatewayConfigFile } from '../../src/config';
import { createGateway, type Gateway, type GatewayEnv } from '../../src/gateway';
import { createLogger } from '@gateway/observability';
import { startControlledUpstream, type ControlledUpstream } from '../reliability/support/controlled-upstream';
import { countingChatStream } from '../support/counting-chat-stream';
import { ALPHA_KEY, BETA_KEY, testConfigFile } from '../support/test-gateway';

const ADMIN = 'sk-admin-catalogue-0001';
const POLL_MS = 200;
// what "within CONFIG_POLL_MS" may take on a loaded 2-core machine: a few polls, waited for as an event
const WITHIN_POLLS = 25 * POLL_MS;

interface Instance {
  gw: Gateway;
  url: string;
  lines: Array<Record<string, unknown>>;
}

/**
 * Two gateways, each with its own store connection, config poller and logger, on one PostgreSQL schema and one
 * config file, as two replicas would run: the file is imported once, an admin change on one reaches the other
 * within the poll without cutting its streams, a restart keeps admin changes, and a changed file is imported.
 */
describeWithService('TEST_DATABASE_URL', 'one catalogue across two instances', (pgUrl) => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-catalogue-'));
  const configPath = path.join(dir, 'gateway.json');
  let upstream: ControlledUpstream;
  const running: Instance[] = [];

  const writeFile = (extra: Partial<GatewayConfigFile> = {}) => {
    const base = testConfigFile();
    const file = testConfigFile({
      providers: [...base.providers, { id: 'held', type: 'openai-compatible', baseUrl: upstream.url, apiKey: upstream.apiKey }],
      models: [...base.models, { id: 'via-held', kind: 'text', provider: 'held', upstreamModel: 'slow-model' }],
      ...extra,
    });
    writeFileSync(configPath, JSON.stringify(file, null, 2));
    return file;
  };

  async function start(): Promise<Instance> {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    const env: GatewayEnv = {
      port: 0,
      host: '127.0.0.1',
      dataDir: dir,
      publicBaseUrl: 'https://gateway.test',
      databaseUrl: pgUrl,
      databaseSchema: schema,
      configPath,
      adminKey: ADMIN,
      configPollMs: POLL_MS,
      keyCacheTtlMs: 0,
    };
    const gw = await createGateway(env, { logger: createLogger('info', { stream, format: 'json' }) });
    await bootstrapConfigKeys(gw.stores, gw.config);
    const server = await gw.listen(0, '127.0.0.1');
    await gw.startBackground();
    const instance = { gw, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lines };
    running.push(instance);
    return instance;
  }
  async function stop(i: Instance) {
    running.splice(running.indexOf(i), 1);
    await i.gw.close();
  }

  const imports = (...all: Instance[]) => all.flatMap((i) => i.lines.filter((l) => l.message === 'config file imported'));
  const modelIds = async (i: Instance) =>
    (await request(i.gw.app).get('/v1/models').set('Authorization', `Bearer ${BETA_KEY}`)).body.data.map((m: { id: string }) => m.id);
  const chat = (i: Instance, model: string, key = BETA_KEY) =>
    request(i.gw.app)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .send({ model, messages: [{ role: 'user', content: 'hi' }] });

  beforeAll(async () => {
    upstream = await startControlledUpstream('openai', 'hold');
  });
  afterAll(async () => {
    for (const i of [...running]) await stop(i);
    await upstream.close();
    const db = await openDatabase({ databaseUrl: pgUrl });
    await db.knex.raw(`drop schema if exists "${schema}" cascade`);
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('both start with one file: it is imported once and they serve the same catalogue', async () => {
    const file = writeFile();
    const [a, b] = await Promise.all([start(), start()]);
    const imported = imports(a, b);
    expect(imported).toHaveLength(1);
    const entries = file.providers.length + file.models.length + file.groups.length;
    expect(imported[0]).toMatchObject({ level: 'info', hash: expect.stringMatching(/^[0-9a-f]{64}$/), added: entries, removed: 0 });
    const unchanged = [a, b].flatMap((i) => i.lines.filter((l) => String(l.message).startsWith('config file unchanged')));
    expect(unchanged).toEqual([expect.objectContaining({ hash: imported[0]!.hash })]);
    expect(await modelIds(a)).toEqual(await modelIds(b));
  });

  it("an admin change on A reaches B within the poll and leaves B's stream in flight whole", async () => {
    const [a, b] = running;
    const stream = await countingChatStream(b!.url, 'via-held');

    const admin = (p: string, body: object) => request(a!.gw.app).put(p).set('Authorization', `Bearer ${ADMIN}`).send(body);
    expect((await admin('/admin/models/added-on-a', { kind: 'text', provider: 'sim' })).status).toBe(200);
    // the streaming model's own deployment changes its upstream model
    expect((await admin('/admin/models/via-held', { kind: 'text', provider: 'held', upstreamModel: 'faster-model' })).status).toBe(200);
    // two admin writes, two catalogue versions: B may poll between them, so wait for both
    await eventually(async () => {
      expect((await chat(b!, 'added-on-a')).status).toBe(200);
      expect(b!.gw.config.catalogue.get('via-held')?.deployments[0]!.upstreamModel).toBe('faster-model');
    }, WITHIN_POLLS);

    upstream.releaseAll();
    expect(await stream.finish()).toEqual({ text: 'one two three four five six seven eight nine', done: true });
  });

  it('a restart with the same file keeps the admin change; a changed file is imported and its limits apply everywhere', async () => {
    const [a, b] = running;
    await stop(a!);
    const a2 = await start();
    expect(imports(a2)).toEqual([]);
    expect(await modelIds(a2)).toContain('added-on-a');
    expect(a2.gw.config.catalogue.get('via-held')?.deployments[0]!.upstreamModel).toBe('faster-model');

    // the file changes: a new model and a request limit; B restarts with it and imports it, A picks it up by polling
    const base = testConfigFile();
    writeFile({
      models: [...base.models, { id: 'via-held', kind: 'text', provider: 'held' }, { id: 'from-new-file', kind: 'text', provider: 'sim' }],
      limits: { requestsPerMinutePerKey: 2 },
    });
    await stop(b!);
    const b2 = await start();
    expect(imports(b2)).toEqual([expect.objectContaining({ added: 1, changed: 1, removed: 1, adminEditsReplaced: 2 })]);
    await eventually(async () => expect(await modelIds(a2)).toContain('from-new-file'), WITHIN_POLLS);
    // the import replaced the catalogue: the admin's model is gone on both
    expect(await modelIds(a2)).not.toContain('added-on-a');
    expect(await modelIds(b2)).not.toContain('added-on-a');
    // A's own file still says no limit; the database's says two a minute
    expect(a2.gw.config.limits.requestsPerMinutePerKey).toBe(2);
    const statuses = [];
    for (let n = 0; n < 3; n++) statuses.push((await chat(a2, 'sim-chat', ALPHA_KEY)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
