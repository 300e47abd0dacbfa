import Anthropic from '@anthropic-ai/sdk';
import request from 'supertest';
import type { FakeBehaviour } from '@gateway/testkit';
import { comparableUsageRow, GUARDED_KEY, PLAIN_KEY, startForwardingGateway, type ForwardingGateway } from '../support/forwarding-gateway';

/**
 * Same-dialect stream forwarding (core stream-forwarding.ts) for Anthropic Messages: a Messages stream served by an
 * Anthropic upstream reaches the client as the upstream's own events, with the gateway's message id and model name
 * written into message_start. Driven by the official `@anthropic-ai/sdk` against the same scripted upstream through
 * both paths: the forwarded one (a key without guardrails) and the full one (a model with a response cache, asked not
 * to read or keep the answer, and a key whose output guardrail never matches, either of which takes the offer back).
 * The SDK parses the same events and the same final message either way, and the usage row is the same; the forwarded
 * events are told apart only by what the upstream wrote that the full path does not (message_start's output count
 * and service tier, message_delta's usage without the input counts).
 */

let pg: ForwardingGateway;
const fake = () => pg.fakes.anthropic!;

beforeAll(async () => {
  pg = await startForwardingGateway('anthropic');
});
afterAll(() => pg?.stop());
beforeEach(() => fake().reset());

const client = (key: string) => new Anthropic({ apiKey: key, baseURL: pg.gw.url, maxRetries: 0 });

const THINKING = { thinking: { type: 'enabled' as const, budget_tokens: 1024 } };

/** The SDK's events of one streamed answer, its final message and the usage row it left. */
async function streamed(
  key: string,
  behaviour: FakeBehaviour,
  opts: { full?: boolean; thinking?: boolean } = {},
  events: Anthropic.MessageStreamEvent[] = [],
) {
  fake().enqueue(behaviour);
  const stream = client(key).messages.stream(
    {
      model: opts.full ? pg.cached : pg.model,
      max_tokens: 2048,
      messages: [{ role: 'user', content: 'hello' }],
      ...(opts.thinking ? THINKING : {}),
    },
    opts.full ? { headers: { 'cache-control': 'no-cache, no-store' } } : {},
  );
  for await (const e of stream) events.push(e);
  const final = await stream.finalMessage();
  const { response } = await stream.withResponse();
  return { events, final, row: await comparableUsageRow(pg, key, response.headers.get('x-request-id')!) };
}

/** The counts a usage carries on both paths; the fields beside them are each path's own. */
const counts = (u: Partial<Anthropic.Usage> | Partial<Anthropic.MessageDeltaUsage>) => ({
  input_tokens: u.input_tokens ?? null,
  output_tokens: u.output_tokens,
  cache_read_input_tokens: u.cache_read_input_tokens ?? null,
});

/**
 * An event as compared across paths: pings left out, message_start's message (the SDK's snapshot, which it fills in
 * as the stream goes: sameMessage compares it) as its type, message_delta's usage as its output count.
 */
function comparable(e: Anthropic.MessageStreamEvent) {
  if (e.type === 'message_start') return { type: e.type, message: e.message.type };
  if (e.type === 'message_delta') return { ...e, usage: { output_tokens: e.usage.output_tokens } };
  return e;
}

/** The SDK's final message on both paths: the same but for the gateway's per-answer id and the model name the client asked for. */
function sameMessage(a: Anthropic.Message, b: Anthropic.Message) {
  const { id: _a, model: _ma, usage: ua, ...restA } = a;
  const { id: _b, model: _mb, usage: ub, ...restB } = b;
  expect(restA).toEqual(restB);
  expect(counts(ua)).toEqual(counts(ub));
}

type RawEvent = { event: string; data: Record<string, unknown> };

/** One streamed answer as the events on the wire, and the usage row it left. */
async function raw(key: string, behaviour: FakeBehaviour, full = false) {
  fake().enqueue(behaviour);
  const res = await request(pg.gw.url)
    .post('/v1/messages')
    .set({ 'x-api-key': key, 'anthropic-version': '2023-06-01', ...(full ? { 'cache-control': 'no-cache, no-store' } : {}) })
    .send({ model: full ? pg.cached : pg.model, max_tokens: 100, messages: [{ role: 'user', content: 'hello' }], stream: true });
  expect(res.status).toBe(200);
  const events: RawEvent[] = res.text
    .split('\n\n')
    .filter(Boolean)
    .map((e) => {
      const lines = e.split('\n');
      const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))!.slice(name.length + 2);
      return { event: field('event'), data: JSON.parse(field('data')) as Record<string, unknown> };
    });
  return { events, row: await comparableUsageRow(pg, key, res.headers['x-request-id']!) };
}

const REPLIES: Array<[string, FakeBehaviour, boolean]> = [
  ['text', { reply: { text: 'Forwarded as the upstream wrote it.', usage: { input: 12, output: 9, cached: 4 } } }, false],
  [
    'thinking and text',
    { reply: { reasoning: { text: 'thinking it over' }, text: 'then the answer', usage: { input: 20, output: 30 } } },
    true,
  ],
  ['tool use', { reply: { toolCalls: [{ id: 'toolu_a', name: 'lookup', arguments: { q: 'x' } }], usage: { input: 8, output: 5 } } }, false],
  ['a max_tokens stop', { reply: { text: 'cut', finish: 'length', usage: { input: 3, output: 1 } } }, false],
];

describe('Messages stream forwarding', () => {
  it.each(REPLIES)('%s: the same events, final message and usage row as the full path', async (_name, behaviour, thinking) => {
    const forwarded = await streamed(PLAIN_KEY, behaviour, { thinking });
    const full = await streamed(PLAIN_KEY, behaviour, { thinking, full: true });
    const strip = (events: Anthropic.MessageStreamEvent[]) => events.filter((e) => (e.type as string) !== 'ping').map(comparable);
    expect(strip(forwarded.events)).toEqual(strip(full.events));
    sameMessage(forwarded.final, full.final);
    expect(forwarded.final.model).toBe(pg.model);
    expect(full.final.model).toBe(pg.cached);
    expect(forwarded.final.id).toMatch(/^msg_/);
    expect(forwarded.final.id).not.toBe('msg_fake0001');
    expect(forwarded.row).toEqual(full.row);
    expect(forwarded.row).toMatchObject({ status: 'ok' });
  });

  it('forwards the upstream events themselves: message_start keeps what the upstream wrote beside the id and model', async () => {
    const forwarded = await raw(PLAIN_KEY, REPLIES[0]![1]);
    const full = await raw(PLAIN_KEY, REPLIES[0]![1], true);
    const start = (events: RawEvent[]) => events.find((e) => e.event === 'message_start')!.data.message as Record<string, unknown>;
    expect(start(forwarded.events)).toMatchObject({ model: pg.model, usage: { output_tokens: 1, service_tier: 'standard' } });
    expect(start(forwarded.events).id).toMatch(/^msg_/);
    expect(start(forwarded.events).id).not.toBe('msg_fake0001');
    expect(start(full.events).usage).toEqual({
      input_tokens: 8,
      output_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 4,
    });
    const delta = (events: RawEvent[]) => events.find((e) => e.event === 'message_delta')!.data.usage;
    expect(delta(forwarded.events)).toEqual({ output_tokens: 9 });
    expect(delta(full.events)).toMatchObject({ input_tokens: 8, output_tokens: 9 });
  });

  it('a key with an output guardrail takes the full path', async () => {
    const { events } = await raw(GUARDED_KEY, REPLIES[0]![1]);
    const start = events.find((e) => e.event === 'message_start')!.data.message as Record<string, unknown>;
    expect(start.usage).toEqual({ input_tokens: 8, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 4 });
    const text = events.map((e) => (e.data.delta as { text?: string } | undefined)?.text ?? '').join('');
    expect(text).toBe('Forwarded as the upstream wrote it.');
  });

  it('an upstream error mid-stream ends the stream as on the full path, with the same usage row', async () => {
    const failing: FakeBehaviour = { reply: { text: 'partial answer then a failure' }, streamErrorAfter: 5 };
    const forwarded = await raw(PLAIN_KEY, failing);
    const full = await raw(PLAIN_KEY, failing, true);
    const names = (events: RawEvent[]) => events.map((e) => e.event).filter((e) => e !== 'ping');
    expect(names(forwarded.events)).toEqual(names(full.events));
    expect(names(forwarded.events)).toContain('content_block_delta');
    expect(forwarded.events.at(-1)!.event).toBe('error');
    expect(forwarded.events.at(-1)!.data).toEqual(full.events.at(-1)!.data);
    expect(forwarded.events.at(-1)!.data).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
    expect(forwarded.row).toEqual(full.row);
  });

  it('the SDK sees the same events before a mid-stream error, then the same error', async () => {
    const failing: FakeBehaviour = { reply: { text: 'partial answer then a failure' }, streamErrorAfter: 5 };
    const sdk = async (full: boolean) => {
      const events: Anthropic.MessageStreamEvent[] = [];
      const error = await streamed(PLAIN_KEY, failing, { full }, events).then(
        () => undefined,
        (e: unknown) => e,
      );
      return { events: events.filter((e) => (e.type as string) !== 'ping').map(comparable), error };
    };
    const forwarded = await sdk(false);
    const full = await sdk(true);
    expect(forwarded.events).toEqual(full.events);
    expect(forwarded.events.map((e) => e.type)).toContain('content_block_delta');
    expect(forwarded.error).toBeInstanceOf(Anthropic.APIError);
    expect((forwarded.error as InstanceType<typeof Anthropic.APIError>).error).toEqual(
      (full.error as InstanceType<typeof Anthropic.APIError>).error,
    );
  });
});
