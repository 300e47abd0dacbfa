import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import request from 'supertest';
import { startFakeUpstream, type FakeUpstream } from '@gateway/testkit';
import { usageRow } from './support/provider-gateway';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

/**
 * The response cache for text in the four formats, streamed and not, through the real app (embedded store) against
 * a counting fake OpenAI upstream: a second identical request never reaches the upstream while another account's
 * does, a streamed hit replays the same text in as many events, and x-gateway-cache says what happened.
 */
const ALPHA_2 = 'sk-alpha-second-key-0003';
const CACHED = 'cached-chat';
const KEYED = 'keyed-chat';
const GATED = 'gated-chat';

type Format = 'openai-chat' | 'anthropic-messages' | 'openai-responses' | 'gemini-content';
const FORMATS: Format[] = ['openai-chat', 'anthropic-messages', 'openai-responses', 'gemini-content'];

/** An SSE body's data payloads, parsed (`[DONE]` kept as text). */
function events(text: string): unknown[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice(6))
    .map((d) => (d === '[DONE]' ? d : JSON.parse(d)));
}

/** The answer's text as each format carries it, whole or streamed. */
function textOf(format: Format, body: any, streamed: boolean): string {
  if (!streamed) {
    if (format === 'openai-chat') return body.choices[0].message.content;
    if (format === 'anthropic-messages')
      return body.content
        .filter((c: any) => c.type === 'text')
        .map((c: any) => c.text)
        .join('');
    if (format === 'openai-responses')
      return body.output
        .flatMap((o: any) => o.content ?? [])
        .filter((c: any) => c.type === 'output_text')
        .map((c: any) => c.text)
        .join('');
    return body.candidates[0].content.parts.map((p: any) => p.text ?? '').join('');
  }
  const list = events(body) as any[];
  if (format === 'openai-chat') return list.map((e) => e.choices?.[0]?.delta?.content ?? '').join('');
  if (format === 'anthropic-messages') return list.map((e) => (e.type === 'content_block_delta' ? (e.delta.text ?? '') : '')).join('');
  if (format === 'openai-responses') return list.map((e) => (e.type === 'response.output_text.delta' ? e.delta : '')).join('');
  return list.map((e) => (e.candidates?.[0]?.content?.parts ?? []).map((p: any) => p.text ?? '').join('')).join('');
}

describe('response cache for text', () => {
  let gw: TestGateway;
  let up: FakeUpstream;
  let gate: { server: http.Server; url: string; held: number; open(): void };

  beforeAll(async () => {
    up = await startFakeUpstream('openai');
    gate = await startGate(up);
    gw = await startTestGateway({
      listen: true,
      config: testConfigFile({
        providers: [
          { id: 'up', type: 'openai-compatible', baseUrl: up.url, apiKey: up.apiKey },
          { id: 'gated', type: 'openai-compatible', baseUrl: gate.url, apiKey: up.apiKey },
        ],
        models: [
          {
            id: CACHED,
            kind: 'text',
            provider: 'up',
            upstreamModel: 'gpt-up',
            cache: { ttlSeconds: 600 },
            pricing: { inputPerMillionTokens: 1_000_000, outputPerMillionTokens: 1_000_000, cacheHitMultiplier: 0.25 },
          },
          { id: KEYED, kind: 'text', provider: 'up', upstreamModel: 'gpt-up', cache: { ttlSeconds: 600, scope: 'key' } },
          { id: GATED, kind: 'text', provider: 'gated', upstreamModel: 'gpt-up', cache: { ttlSeconds: 600 } },
          { id: 'plain-chat', kind: 'text', provider: 'up', upstreamModel: 'gpt-up' },
        ],
        groups: [{ name: 'vip', models: ['*'] }],
        keys: [
          { key: ALPHA_KEY, account: 'alpha', group: 'vip' },
          { key: ALPHA_2, account: 'alpha', group: 'vip' },
          { key: BETA_KEY, account: 'beta', group: 'vip' },
        ],
      }),
    });
  });
  afterAll(async () => {
    await gw?.stop();
    await up?.close();
    await new Promise((r) => gate?.server.close(r));
  });

  /** One request in `format` (streamed or not) for `prompt`; `extra` goes into the body. */
  function ask(
    format: Format,
    opts: { prompt: string; key?: string; model?: string; stream?: boolean; headers?: Record<string, string>; extra?: object },
  ) {
    const { prompt, key = ALPHA_KEY, model = CACHED, stream = false, headers = {}, extra = {} } = opts;
    const auth = { Authorization: `Bearer ${key}`, ...headers };
    switch (format) {
      case 'openai-chat':
        return request(gw.app)
          .post('/v1/chat/completions')
          .set(auth)
          .send({ model, messages: [{ role: 'user', content: prompt }], stream, ...extra });
      case 'anthropic-messages':
        return request(gw.app)
          .post('/v1/messages')
          .set({ ...auth, 'anthropic-version': '2023-06-01' })
          .send({ model, max_tokens: 200, messages: [{ role: 'user', content: prompt }], stream, ...extra });
      case 'openai-responses':
        return request(gw.app)
          .post('/v1/responses')
          .set(auth)
          .send({ model, input: prompt, stream, ...extra });
      case 'gemini-content':
        return request(gw.app)
          .post(`/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`)
          .set(auth)
          .send({ contents: [{ role: 'user', parts: [{ text: prompt }] }], ...extra });
    }
  }

  const upstreamCalls = (prompt: string) => up.requests.filter((r) => JSON.stringify(r.body ?? {}).includes(prompt)).length;

  describe.each(FORMATS)('%s', (format) => {
    it.each([false, true])('stream %s: a second identical request is a hit; another account misses', async (stream) => {
      const prompt = `tell me ${randomUUID()}`;
      const first = await ask(format, { prompt, stream });
      expect(`${first.status} ${first.text.slice(0, 300)}`).toMatch(/^200/);
      expect(first.headers['x-gateway-cache']).toBe('miss');
      const second = await ask(format, { prompt, stream });
      expect(second.status).toBe(200);
      expect(second.headers['x-gateway-cache']).toBe('hit');
      expect(upstreamCalls(prompt)).toBe(1);
      const body = (r: request.Response) => (stream ? r.text : r.body);
      expect(textOf(format, body(second), stream)).toBe(textOf(format, body(first), stream));
      expect(textOf(format, body(second), stream).length).toBeGreaterThan(0);
      if (stream) expect(events(second.text).length).toBe(events(first.text).length);
      // the same key's sibling shares the account's entries; another account never sees them
      expect((await ask(format, { prompt, stream, key: ALPHA_2 })).headers['x-gateway-cache']).toBe('hit');
      const beta = await ask(format, { prompt, stream, key: BETA_KEY });
      expect(beta.headers['x-gateway-cache']).toBe('miss');
      expect(upstreamCalls(prompt)).toBe(2);
    });

    it('a cached stream answers a non-streamed request, and a cached answer a streamed one', async () => {
      const prompt = `both ways ${randomUUID()}`;
      const streamed = await ask(format, { prompt, stream: true });
      const whole = await ask(format, { prompt });
      expect(whole.headers['x-gateway-cache']).toBe('hit');
      expect(textOf(format, whole.body, false)).toBe(textOf(format, streamed.text, true));
      const other = `other way ${randomUUID()}`;
      const once = await ask(format, { prompt: other });
      const replay = await ask(format, { prompt: other, stream: true });
      expect(replay.headers['x-gateway-cache']).toBe('hit');
      expect(textOf(format, replay.text, true)).toBe(textOf(format, once.body, false));
      expect(upstreamCalls(prompt) + upstreamCalls(other)).toBe(2);
    });
  });

  it('scope key: another key of the same account misses', async () => {
    const prompt = `keyed ${randomUUID()}`;
    await ask('openai-chat', { prompt, model: KEYED });
    expect((await ask('openai-chat', { prompt, model: KEYED })).headers['x-gateway-cache']).toBe('hit');
    expect((await ask('openai-chat', { prompt, model: KEYED, key: ALPHA_2 })).headers['x-gateway-cache']).toBe('miss');
    expect(upstreamCalls(prompt)).toBe(2);
  });

  it.each<[string, Format, object, Record<string, string>]>([
    ['temperature above 0', 'openai-chat', { temperature: 0.7 }, {}],
    ['declared tools', 'openai-chat', { tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] }, {}],
    ['Cache-Control: no-store', 'anthropic-messages', {}, { 'Cache-Control': 'no-store' }],
    ['Responses store: true', 'openai-responses', { store: true }, {}],
    ['n above 1', 'openai-chat', { n: 2 }, {}],
  ])('bypasses %s: never looked up', async (_name, format, extra, headers) => {
    const prompt = `bypass ${randomUUID()}`;
    await ask(format, { prompt, extra, headers });
    const again = await ask(format, { prompt, extra, headers });
    expect(again.headers['x-gateway-cache']).toBe('bypass');
    expect(upstreamCalls(prompt)).toBeGreaterThanOrEqual(2);
  });

  it('no-cache skips the lookup but stores; no-store stores nothing; a model without a cache has no header', async () => {
    const prompt = `control ${randomUUID()}`;
    expect((await ask('gemini-content', { prompt, headers: { 'Cache-Control': 'no-store' } })).headers['x-gateway-cache']).toBe('bypass');
    expect((await ask('gemini-content', { prompt, headers: { 'Cache-Control': 'no-cache' } })).headers['x-gateway-cache']).toBe('bypass');
    expect((await ask('gemini-content', { prompt })).headers['x-gateway-cache']).toBe('hit');
    expect(upstreamCalls(prompt)).toBe(2);
    const plain = await ask('openai-chat', { prompt, model: 'plain-chat' });
    expect(plain.status).toBe(200);
    expect(plain.headers['x-gateway-cache']).toBeUndefined();
  });

  it('a hit writes a usage row marked cache_hit, priced at cacheHitMultiplier', async () => {
    const prompt = `priced ${randomUUID()}`;
    const miss = await ask('openai-chat', { prompt, headers: { 'x-request-id': `miss-${prompt.slice(7)}` } });
    const hit = await ask('openai-chat', { prompt, headers: { 'x-request-id': `hit-${prompt.slice(7)}` } });
    const missRow = await usageRow(gw, String(miss.headers['x-request-id']));
    const hitRow = await usageRow(gw, String(hit.headers['x-request-id']));
    expect(missRow.cache_hit).toBeNull();
    expect(hitRow).toMatchObject({ cache_hit: true, status: 'ok', provider: null });
    expect(Number(hitRow.input_tokens)).toBe(Number(missRow.input_tokens));
    expect(Number(hitRow.credits)).toBeCloseTo(Number(missRow.credits) * 0.25, 6);
    expect(Number(missRow.credits)).toBeGreaterThan(0);
  });

  it('the official openai SDK sees the header: miss, then hit with the same streamed text and no upstream call', async () => {
    const client = new OpenAI({ apiKey: ALPHA_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const prompt = `sdk ${randomUUID()}`;
    const ask = () =>
      client.chat.completions.create({ model: CACHED, messages: [{ role: 'user', content: prompt }], stream: true }).withResponse();
    const read = async (s: AsyncIterable<OpenAI.Chat.Completions.ChatCompletionChunk>) => {
      const deltas: string[] = [];
      for await (const c of s) deltas.push(c.choices[0]?.delta?.content ?? '');
      return deltas;
    };
    const first = await ask();
    const firstDeltas = await read(first.data);
    const second = await ask();
    const secondDeltas = await read(second.data);
    expect([first.response.headers.get('x-gateway-cache'), second.response.headers.get('x-gateway-cache')]).toEqual(['miss', 'hit']);
    expect(secondDeltas).toEqual(firstDeltas);
    expect(secondDeltas.join('').length).toBeGreaterThan(0);
    expect(upstreamCalls(prompt)).toBe(1);
  });

  it('single flight: identical requests arriving together make one upstream call, the others are hits', async () => {
    const prompt = `together ${randomUUID()}`;
    const N = 4;
    const calls = Array.from({ length: N }, (_, i) => ask('openai-chat', { prompt, model: GATED, stream: i % 2 === 1 }).then((r) => r));
    // the upstream answer is held until every request reached the gateway and the first reached the upstream
    await until(() => gate.held === 1);
    gate.open();
    const answers = await Promise.all(calls);
    expect(upstreamCalls(prompt)).toBe(1);
    expect(answers.map((a) => a.headers['x-gateway-cache']).sort()).toEqual(['hit', 'hit', 'hit', 'miss']);
  });
});

/** A proxy to the fake upstream that holds every request until opened, counting those it holds. */
async function startGate(up: FakeUpstream) {
  let release!: () => void;
  const opened = new Promise<void>((r) => (release = r));
  const gate = { held: 0, open: () => release() };
  const target = new URL(up.url);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      gate.held++;
      void opened.then(async () => {
        const answer = await fetch(`${target.origin}${req.url}`, {
          method: req.method,
          headers: { 'content-type': 'application/json', authorization: String(req.headers.authorization ?? '') },
          body: Buffer.concat(chunks),
        });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${target.pathname}`;
  return Object.assign(gate, { server, url });
}

async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 5));
}

describe('response cache and rate limits', () => {
  let gw: TestGateway;
  let up: FakeUpstream;
  beforeAll(async () => {
    up = await startFakeUpstream('openai');
    gw = await startTestGateway({
      config: testConfigFile({
        providers: [{ id: 'up', type: 'openai-compatible', baseUrl: up.url, apiKey: up.apiKey }],
        models: [{ id: CACHED, kind: 'text', provider: 'up', upstreamModel: 'gpt-up', cache: { ttlSeconds: 600 } }],
        groups: [{ name: 'vip', models: ['*'] }],
        keys: [{ key: ALPHA_KEY, account: 'alpha', group: 'vip' }],
        limits: { requestsPerMinutePerKey: 2 },
      }),
    });
  });
  afterAll(async () => {
    await gw?.stop();
    await up?.close();
  });

  it('a hit still counts against the key request rate', async () => {
    const ask = () =>
      request(gw.app)
        .post('/v1/chat/completions')
        .set({ Authorization: `Bearer ${ALPHA_KEY}` })
        .send({ model: CACHED, messages: [{ role: 'user', content: 'limited' }] });
    expect((await ask()).headers['x-gateway-cache']).toBe('miss');
    expect((await ask()).headers['x-gateway-cache']).toBe('hit');
    const third = await ask();
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('rate_limit_exceeded');
    expect(up.requests).toHaveLength(1);
  });
});
