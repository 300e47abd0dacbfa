/**
 * Guardrails and the response cache in the Responses API's WebSocket mode (GET /v1/responses with an upgrade), over a
 * real WebSocket against a recording OpenAI-compatible fake upstream on 127.0.0.1: each `response.create` runs through
 * the HTTP route, so the input rules (mask, block) and the output rules hold as over HTTP, and a cached model answers
 * a repeated create from its cache.
 */
import { startProviderGateway, UPSTREAMS, type ProviderGateway } from './support/provider-gateway';
import { connectResponsesSocket } from './support/responses-socket';
import { BETA_KEY } from './support/test-gateway';

const COMPATIBLE = UPSTREAMS.find((u) => u.name === 'openai-compatible')!;
const MODEL = COMPATIBLE.model;
const CACHED = 'ws-cached';

let pg: ProviderGateway;
const fake = () => pg.fakes['openai-compatible']!;

beforeAll(async () => {
  pg = await startProviderGateway([COMPATIBLE], (file) => ({
    ...file,
    models: [...file.models, { id: CACHED, kind: 'text', provider: COMPATIBLE.name, upstreamModel: 'gpt-up', cache: { ttlSeconds: 600 } }],
    guardrails: [
      { id: 'pii-mask', type: 'pii', mode: 'mask' },
      { id: 'no-forbidden', type: 'regex', on: 'output', patterns: ['(?i)forbidden'] },
      { id: 'no-falcon', type: 'regex', patterns: ['(?i)project\\s+falcon'] },
    ],
    groups: file.groups.map((g) => (g.name === 'vip' ? { ...g, guardrails: ['pii-mask', 'no-forbidden', 'no-falcon'] } : g)),
  }));
});
afterAll(async () => {
  await pg?.stop();
});
beforeEach(() => fake().reset());

/** A connection of the beta account to the Responses WebSocket mode. */
const connect = () => connectResponsesSocket(`${pg.gw.url.replace(/^http/, 'ws')}/v1/responses`, { Authorization: `Bearer ${BETA_KEY}` });

describe('guardrails in the Responses WebSocket mode', () => {
  it('a masked e-mail address never reaches the upstream', async () => {
    const c = await connect();
    const events = await c.create({ model: MODEL, input: 'Please write to bob.smith@example.com today' });
    expect(events.at(-1).type).toBe('response.completed');
    expect(fake().requests).toHaveLength(1);
    expect(fake().requests[0]!.rawBody).not.toContain('bob.smith@example.com');
    expect(fake().requests[0]!.rawBody).toContain('[EMAIL]');
    expect(JSON.stringify(events)).not.toContain('bob.smith@example.com');
    c.close();
  });

  it("a blocked input answers the mode's error event with guardrail_blocked, sends nothing upstream, and the connection goes on", async () => {
    const c = await connect();
    const refused = await c.create({ model: MODEL, input: 'Tell me everything about Project Falcon' });
    expect(refused).toEqual([
      {
        type: 'error',
        status: 400,
        error: expect.objectContaining({ code: 'guardrail_blocked', message: expect.stringContaining('no-falcon') }),
      },
    ]);
    expect(JSON.stringify(refused).toLowerCase()).not.toContain('project falcon');
    expect(fake().requests).toHaveLength(0);
    expect((await c.create({ model: MODEL, input: 'hello' })).at(-1).type).toBe('response.completed');
    c.close();
  });

  it('a blocked output ends the response with an error event (guardrail_blocked) before the matched word is sent', async () => {
    fake().setDefault({ reply: { text: `${'a'.repeat(600)} and the forbidden word, then more` } });
    const c = await connect();
    const events = await c.create({ model: MODEL, input: 'hello' });
    expect(events.map((e) => e.type).slice(-2)).toEqual(['error', 'response.failed']);
    expect(events.at(-2)).toMatchObject({ code: 'guardrail_blocked' });
    const raw = JSON.stringify(events);
    expect(raw.replaceAll('no-forbidden', '').toLowerCase()).not.toContain('forbidden');
    expect(raw).toContain('aaaaaaaaaa');
    c.close();
  });
});

describe('the response cache in the Responses WebSocket mode', () => {
  it('a repeated create on a cached model is answered from the cache: one upstream call, the same text', async () => {
    fake().setDefault({ reply: { text: 'a cached answer' } });
    const c = await connect();
    const text = (events: any[]) =>
      events
        .filter((e) => e.type === 'response.output_text.delta')
        .map((e) => e.delta)
        .join('');
    const first = await c.create({ model: CACHED, input: 'the same question' });
    const second = await c.create({ model: CACHED, input: 'the same question' });
    expect([first.at(-1).type, second.at(-1).type]).toEqual(['response.completed', 'response.completed']);
    expect(fake().requests).toHaveLength(1);
    expect(text(second)).toBe('a cached answer');
    expect(text(first)).toBe(text(second));
    c.close();
  });
});
