import OpenAI from 'openai';
import request from 'supertest';
import type { FakeBehaviour } from '@gateway/testkit';
import { comparableUsageRow, GUARDED_KEY, PLAIN_KEY, startForwardingGateway, type ForwardingGateway } from '../support/forwarding-gateway';

/**
 * Same-dialect stream forwarding (core stream-forwarding.ts): an OpenAI chat stream served by a chat-completions
 * upstream reaches the client as the upstream's own chunks, with the gateway's id, created, model and fingerprint
 * written in. Driven by the official `openai` SDK against the same scripted upstream through both paths: the
 * forwarded one (a key without guardrails) and the full one (a key whose output guardrail never matches, and a model
 * with a response cache, either of which takes the offer back). The client gets the same chunks and the same usage
 * row either way; the forwarded chunks are told apart only by what the upstream wrote that the full path does not
 * (the role chunk's `refusal: null`).
 */

let pg: ForwardingGateway;
const fake = () => pg.fakes['openai-compatible']!;

beforeAll(async () => {
  pg = await startForwardingGateway('openai-compatible');
});
afterAll(() => pg?.stop());
beforeEach(() => fake().reset());

const client = (key: string) => new OpenAI({ apiKey: key, baseURL: `${pg.gw.url}/v1`, maxRetries: 0 });

/**
 * The SDK's chunks of one streamed answer and the usage row it left. The full path's reference is the cached model,
 * asked not to read or keep the answer (`no-cache, no-store`): the cache layer still stands between, so the offer is
 * withdrawn, and nothing else differs.
 */
async function streamed(key: string, behaviour: FakeBehaviour, opts: { full?: boolean; includeUsage?: boolean } = {}) {
  fake().enqueue(behaviour);
  const { data: stream, response } = await client(key)
    .chat.completions.create(
      {
        model: opts.full ? pg.cached : pg.model,
        messages: [{ role: 'user', content: 'hello' }],
        stream: true,
        ...(opts.includeUsage ? { stream_options: { include_usage: true } } : {}),
      },
      opts.full ? { headers: { 'cache-control': 'no-cache, no-store' } } : {},
    )
    .withResponse();
  const chunks: OpenAI.ChatCompletionChunk[] = [];
  for await (const c of stream) chunks.push(c);
  return { chunks, row: await comparableUsageRow(pg, key, response.headers.get('x-request-id')!) };
}

/**
 * A chunk as compared across paths: the gateway's per-answer id and clock left out, and what only the upstream
 * writes (a null refusal, a usage's detail fields) or only the gateway's encoding does.
 */
function comparable(c: OpenAI.ChatCompletionChunk) {
  expect(c.id).toMatch(/^chatcmpl-/);
  const { id: _id, created: _created, model: _model, usage, ...rest } = c;
  return {
    ...rest,
    ...(usage === undefined ? {} : { usage: usage && counts(usage) }),
    choices: c.choices.map((choice) => {
      const { refusal, ...delta } = choice.delta as OpenAI.ChatCompletionChunk.Choice.Delta & { refusal?: unknown };
      if (refusal !== null && refusal !== undefined) return { ...choice, delta: { ...delta, refusal } };
      return { ...choice, delta };
    }),
  };
}

/** The counts a usage carries on both paths; the detail fields beside them are each path's own (the upstream's, or the gateway's encoding). */
const counts = (u: OpenAI.CompletionUsage) => ({
  prompt_tokens: u.prompt_tokens,
  completion_tokens: u.completion_tokens,
  total_tokens: u.total_tokens,
  cached_tokens: u.prompt_tokens_details?.cached_tokens,
  reasoning_tokens: u.completion_tokens_details?.reasoning_tokens,
});

const REPLIES: Array<[string, FakeBehaviour]> = [
  ['text', { reply: { text: 'Forwarded as the upstream wrote it.', usage: { input: 12, output: 9 } } }],
  [
    'reasoning and text',
    { reply: { reasoning: { text: 'thinking it over' }, text: 'then the answer', usage: { input: 20, output: 30, reasoning: 12 } } },
  ],
  ['tool calls', { reply: { toolCalls: [{ id: 'call_a', name: 'lookup', arguments: { q: 'x' } }], usage: { input: 8, output: 5 } } }],
  ['a length finish', { reply: { text: 'cut', finish: 'length', usage: { input: 3, output: 1 } } }],
];

describe('same-dialect stream forwarding', () => {
  it.each(REPLIES)('%s: the same chunks and the same usage row as the full path', async (_name, behaviour) => {
    for (const includeUsage of [false, true]) {
      const forwarded = await streamed(PLAIN_KEY, behaviour, { includeUsage });
      const full = await streamed(PLAIN_KEY, behaviour, { includeUsage, full: true });
      expect(forwarded.chunks.map(comparable)).toEqual(full.chunks.map(comparable));
      expect(new Set(forwarded.chunks.map((c) => c.id)).size).toBe(1);
      for (const c of forwarded.chunks) expect(c.model).toBe(pg.model);
      expect(forwarded.row).toEqual(full.row);
      expect(forwarded.row).toMatchObject({ status: 'ok' });
    }
  });

  it('forwards the upstream chunks themselves, with the gateway id, model name and fingerprint written in', async () => {
    const forwarded = await streamed(PLAIN_KEY, REPLIES[0]![1]);
    const full = await streamed(PLAIN_KEY, REPLIES[0]![1], { full: true });
    expect(forwarded.chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '', refusal: null });
    expect(full.chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '' });
    for (const c of forwarded.chunks) expect(c).toMatchObject({ model: pg.model, system_fingerprint: full.chunks[0]!.system_fingerprint });
    expect(forwarded.chunks.map((c) => c.id)).not.toContain('chatcmpl-fake0001');
  });

  it('a key with an output guardrail takes the full path', async () => {
    const guarded = await streamed(GUARDED_KEY, REPLIES[0]![1]);
    expect(guarded.chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '' });
    expect(guarded.chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Forwarded as the upstream wrote it.');
  });

  it('usage the client did not ask for is left out: no usage chunk, no usage field', async () => {
    const { chunks, row } = await streamed(PLAIN_KEY, REPLIES[0]![1]);
    for (const c of chunks) expect(c).not.toHaveProperty('usage');
    expect(chunks.every((c) => c.choices.length === 1)).toBe(true);
    // the gateway asked the upstream for it all the same: the usage row has it
    expect(fake().requests[0]!.body.stream_options).toEqual({ include_usage: true });
    expect(row).toMatchObject({ input_tokens: 12, output_tokens: 9 });
  });

  it('an upstream error mid-stream ends the stream as on the full path, with the same usage row', async () => {
    const failing: FakeBehaviour = { reply: { text: 'partial answer then a failure' }, streamErrorAfter: 3 };
    const ask = async (full: boolean) => {
      fake().enqueue(failing);
      const res = await request(pg.gw.url)
        .post('/v1/chat/completions')
        .set({ authorization: `Bearer ${PLAIN_KEY}`, ...(full ? { 'cache-control': 'no-cache, no-store' } : {}) })
        .send({ model: full ? pg.cached : pg.model, messages: [{ role: 'user', content: 'hello' }], stream: true });
      expect(res.status).toBe(200);
      const events = res.text
        .split('\n\n')
        .filter(Boolean)
        .map((e) =>
          e
            .split('\n')
            .find((l) => l.startsWith('data: '))!
            .slice('data: '.length),
        );
      return { events, row: await comparableUsageRow(pg, PLAIN_KEY, res.headers['x-request-id']!) };
    };
    const forwarded = await ask(false);
    const full = await ask(true);
    expect(forwarded.events.length).toBe(full.events.length);
    expect(JSON.parse(forwarded.events.at(-1)!)).toEqual(JSON.parse(full.events.at(-1)!));
    expect(JSON.parse(forwarded.events.at(-1)!)).toMatchObject({ error: { code: expect.any(String) } });
    expect(forwarded.row).toEqual(full.row);
  });
});
