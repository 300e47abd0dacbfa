import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startFakeCohere, type FakeCohere } from '@gateway/provider-cohere/testing';
import { fakeOpenAiVector, startFakeOpenAiEmbeddings, type FakeOpenAiEmbeddings } from '@gateway/provider-openai/testing';
import { describeWithService } from '@gateway/testkit';
import { DEFAULT_CONFIG } from '../src/default-config';
import { runCli } from '../src/cli';
import { adminApiAt, runCommand } from '@gateway/cli';
import { envFromProcess } from '../src/gateway';
import { seedEmbeddedStore } from './support/gateway-process';
import { usageRow } from './support/provider-gateway';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

/**
 * The response cache for embeddings (per input item) and rerank (per request), in the database and on Redis
 * (REDIS_URL), through the real app against counting fake upstreams; the admin purge route and the CLI command; the
 * cache metrics.
 */
describe('the response cache for embeddings and rerank, in the database (the embedded store)', () => suite(undefined));
describeWithService('TEST_REDIS_URL', 'the response cache for embeddings and rerank, on Redis', (redisUrl) => suite(redisUrl));

function suite(redisUrl: string | undefined): void {
  let gw: TestGateway;
  let oai: FakeOpenAiEmbeddings;
  let cohere: FakeCohere;
  // model ids of this run: entries of an earlier run on the same Redis are another model's
  const run = randomUUID().slice(0, 8);
  const EMBED = `emb-${run}`;
  const RERANK = `rr-${run}`;
  const ADMIN = 'sk-admin-cache-0001';

  beforeAll(async () => {
    [oai, cohere] = await Promise.all([startFakeOpenAiEmbeddings(), startFakeCohere()]);
    gw = await startTestGateway({
      listen: true,
      env: { ...(redisUrl ? { redisUrl } : {}), adminKey: ADMIN },
      config: testConfigFile({
        providers: [
          { id: 'sim', type: 'simulator' },
          { id: 'oai', type: 'openai', baseUrl: oai.url, apiKey: oai.apiKey },
          { id: 'co', type: 'cohere', baseUrl: cohere.url, apiKey: cohere.apiKey },
        ],
        models: [
          ...DEFAULT_CONFIG.models,
          {
            id: EMBED,
            kind: 'embedding',
            provider: 'oai',
            upstreamModel: 'text-embedding-3-small',
            cache: { ttlSeconds: 600 },
            pricing: { inputPerMillionTokens: 1_000_000, cacheHitMultiplier: 0.5 },
          },
          { id: RERANK, kind: 'rerank', provider: 'co', upstreamModel: 'rerank-v3.5', cache: { ttlSeconds: 600 } },
        ],
        groups: [{ name: 'vip', models: ['*'] }],
        keys: [
          { key: ALPHA_KEY, account: 'alpha', group: 'vip' },
          { key: BETA_KEY, account: 'beta', group: 'vip' },
        ],
      }),
    });
  });
  afterAll(async () => {
    await gw.stop();
    await Promise.all([oai.close(), cohere.close()]);
  });

  const embed = (key: string, input: string[], headers: Record<string, string> = {}) =>
    request(gw.app)
      .post('/v1/embeddings')
      .set({ Authorization: `Bearer ${key}`, ...headers })
      .send({ model: EMBED, input, encoding_format: 'float', dimensions: 8 });
  const sentInputs = () => oai.bodies().map((b) => b.input);
  const vector = (text: string) => {
    const v = fakeOpenAiVector(text, 1536).slice(0, 8);
    const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    return v.map((x) => x / n);
  };
  const rerank = (key: string, query: string) =>
    request(gw.app)
      .post('/v2/rerank')
      .set({ Authorization: `Bearer ${key}` })
      .send({ model: RERANK, query, documents: ['red', 'green', 'blue'], top_n: 2 });

  it('a partly cached batch sends only the new items upstream; the answer holds every vector in input order', async () => {
    const first = await embed(BETA_KEY, ['apple', 'pear']);
    expect(first.status).toBe(200);
    expect(first.headers['x-gateway-cache']).toBe('miss');
    const second = await embed(BETA_KEY, ['plum', 'pear', 'apple', 'fig']);
    expect(second.headers['x-gateway-cache']).toBe('miss');
    expect(sentInputs()).toEqual([
      ['apple', 'pear'],
      ['plum', 'fig'],
    ]);
    const got = second.body.data.map((d: { index: number; embedding: number[] }) => [d.index, d.embedding]);
    ['plum', 'pear', 'apple', 'fig'].forEach((text, i) => {
      expect(got[i][0]).toBe(i);
      got[i][1].forEach((x: number, j: number) => expect(x).toBeCloseTo(vector(text)[j]!, 6));
    });
    const third = await embed(BETA_KEY, ['fig', 'apple']);
    expect(third.headers['x-gateway-cache']).toBe('hit');
    expect(sentInputs()).toHaveLength(2);
    // the usage row of a hit: marked, priced at cacheHitMultiplier x the price (2 tokens estimated each: 1 credit per token)
    const row = await usageRow(gw, third.headers['x-request-id']!);
    expect(row).toMatchObject({ cache_hit: true, model: EMBED, status: 'ok' });
    expect(Number(row.credits)).toBe(Number(row.input_tokens) * 0.5);
  });

  it('another account misses; a Gemini batch of the same texts is served from the same entries', async () => {
    const before = sentInputs().length;
    expect((await embed(ALPHA_KEY, ['apple'])).headers['x-gateway-cache']).toBe('miss');
    expect(sentInputs()).toHaveLength(before + 1);
    const gemini = await request(gw.app)
      .post(`/v1beta/models/${EMBED}:batchEmbedContents`)
      .set({ 'x-goog-api-key': BETA_KEY })
      .send({
        requests: ['pear', 'plum'].map((t) => ({ model: `models/${EMBED}`, content: { parts: [{ text: t }] }, outputDimensionality: 8 })),
      });
    expect(gemini.status).toBe(200);
    expect(gemini.headers['x-gateway-cache']).toBe('hit');
    expect(sentInputs()).toHaveLength(before + 1);
  });

  it('Cache-Control: no-store skips the lookup and the store', async () => {
    const before = sentInputs().length;
    const res = await embed(BETA_KEY, ['apple'], { 'Cache-Control': 'no-store' });
    expect(res.headers['x-gateway-cache']).toBe('bypass');
    expect(sentInputs()).toHaveLength(before + 1);
  });

  it('rerank: a second identical request is a hit, another account or query a miss', async () => {
    const first = await rerank(BETA_KEY, 'sky');
    expect(first.status).toBe(200);
    expect(first.headers['x-gateway-cache']).toBe('miss');
    const again = await rerank(BETA_KEY, 'sky');
    expect(again.headers['x-gateway-cache']).toBe('hit');
    expect(again.body.results).toEqual(first.body.results);
    expect(again.body.id).not.toBe(first.body.id);
    expect((await rerank(ALPHA_KEY, 'sky')).headers['x-gateway-cache']).toBe('miss');
    expect((await rerank(BETA_KEY, 'sea')).headers['x-gateway-cache']).toBe('miss');
    expect(cohere.bodies('/v2/rerank')).toHaveLength(3);
  });

  it('/metrics counts hits, misses, bypasses and bytes stored by model', async () => {
    const res = await request(gw.app).get('/metrics').set('Authorization', `Bearer ${ADMIN}`);
    expect(res.text).toMatch(new RegExp(`gateway_response_cache_lookups_total\\{kind="embedding",model="${EMBED}",outcome="hit"\\} 2`));
    expect(res.text).toMatch(new RegExp(`gateway_response_cache_lookups_total\\{kind="embedding",model="${EMBED}",outcome="miss"\\} 3`));
    expect(res.text).toMatch(new RegExp(`gateway_response_cache_lookups_total\\{kind="embedding",model="${EMBED}",outcome="bypass"\\} 1`));
    expect(res.text).toMatch(new RegExp(`gateway_response_cache_lookups_total\\{kind="rerank",model="${RERANK}",outcome="hit"\\} 1`));
    const bytes = res.text.match(new RegExp(`gateway_response_cache_stored_bytes_total\\{kind="embedding",model="${EMBED}"\\} (\\d+)`));
    expect(Number(bytes?.[1])).toBeGreaterThan(0);
  });

  it('the admin purge by account and model empties those entries only, and is audited', async () => {
    expect((await request(gw.app).delete('/admin/cache').set('Authorization', `Bearer ${BETA_KEY}`)).status).toBe(401);
    const purged = await request(gw.app).delete(`/admin/cache?model=${EMBED}&account=alpha`).set('Authorization', `Bearer ${ADMIN}`);
    expect(purged.status).toBe(200);
    expect(purged.body).toEqual({ object: 'cache.purge', model: EMBED, account: 'alpha', purged: 1 });
    const before = sentInputs().length;
    expect((await embed(ALPHA_KEY, ['apple'])).headers['x-gateway-cache']).toBe('miss');
    expect((await embed(BETA_KEY, ['apple'])).headers['x-gateway-cache']).toBe('hit');
    expect(sentInputs()).toHaveLength(before + 1);
    const audit = await request(gw.app).get('/admin/audit?action=cache.purge').set('Authorization', `Bearer ${ADMIN}`);
    expect(audit.body.data[0]).toMatchObject({
      action: 'cache.purge',
      actor: { type: 'admin_key' },
      after: { model: EMBED, account: 'alpha', purged: 1 },
    });
  });

  it('the CLI command: through the running gateway, and on its own over the store and Redis', async () => {
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(`ERR ${l}`) };
    const api = adminApiAt({ url: gw.url, token: gw.localAdminToken });
    expect(await runCommand(api, 'cache:purge', ['--model', RERANK], io)).toBe(0);
    expect(out).toEqual([`purged 3 response cache entries (model ${RERANK}, account any)`]);
    expect((await rerank(BETA_KEY, 'sky')).headers['x-gateway-cache']).toBe('miss');

    // no gateway on this store: the CLI serves the admin API itself, over the same Redis (beta's apple, pear, plum, fig);
    // the in-memory database of the other run is this process's alone
    if (!redisUrl) return;
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-cli-cache-'));
    try {
      seedEmbeddedStore({ DATA_DIR: dataDir });
      out.length = 0;
      const env = envFromProcess({ DATA_DIR: dataDir, REDIS_URL: redisUrl });
      expect(await runCli(['cache:purge', '--model', EMBED, '--account', 'beta'], io, env)).toBe(0);
      expect(out).toEqual([`purged 4 response cache entries (model ${EMBED}, account beta)`]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    expect((await embed(BETA_KEY, ['apple'])).headers['x-gateway-cache']).toBe('miss');
  }, 120_000);
}
