import OpenAI from 'openai';
import request from 'supertest';
import { messageItem, outputText, responsesEvent, upstreamResponse } from '@gateway/provider-openai/testing';
import type { FakeBehaviour } from '@gateway/testkit';
import { comparableUsageRow, GUARDED_KEY, PLAIN_KEY, startForwardingGateway, type ForwardingGateway } from '../support/forwarding-gateway';

/**
 * Same-dialect stream forwarding (core stream-forwarding.ts) for OpenAI Responses: a `POST /v1/responses` stream
 * served by a Responses upstream reaches the client as the upstream's own events about its output items (OpenAI's
 * item ids, sequence numbers and padding, as written), and the events carrying the response object with the
 * gateway's id and the model name the client asked for. Driven by the official `openai` SDK (`responses.stream`,
 * `responses.create` with `stream: true`) against the same scripted upstream through three paths:
 * - forwarded: a key without guardrails;
 * - native: a model with a response cache, asked not to read or keep the answer, which takes the offer back; the
 *   upstream's events then come one native event each, parsed and re-encoded (what every such stream did before);
 * - canonical: a key whose output guardrail never matches, which also drops the native events; the gateway's own
 *   encoder writes the events from the canonical parts.
 * The SDK reads the same text, reasoning, calls, status and usage on each, the usage row is the same, and the stored
 * response (GET, input_items, previous_response_id) works the same.
 */

let pg: ForwardingGateway;
const fake = () => pg.fakes['openai-responses']!;

beforeAll(async () => {
  pg = await startForwardingGateway('openai-responses');
});
afterAll(() => pg?.stop());
beforeEach(() => fake().reset());

const FULL = { 'cache-control': 'no-cache, no-store' };

/** A client that notes the gateway's request id of its last call. */
function client(key: string) {
  const seen = { requestId: '' };
  const openai = new OpenAI({
    apiKey: key,
    baseURL: `${pg.gw.url}/v1`,
    maxRetries: 0,
    fetch: async (...args: Parameters<typeof fetch>) => {
      const res = await fetch(...args);
      seen.requestId = res.headers.get('x-request-id') ?? '';
      return res;
    },
  });
  return { openai, seen };
}

type Ask = { full?: boolean; key?: string; body?: Partial<OpenAI.Responses.ResponseCreateParamsStreaming> };

/** One answer through the SDK's `responses.stream` helper: its events, its final response and the usage row it left. */
async function streamed(behaviour: FakeBehaviour, ask: Ask = {}) {
  fake().enqueue(behaviour);
  const key = ask.key ?? PLAIN_KEY;
  const { openai, seen } = client(key);
  const stream = openai.responses.stream(
    { model: ask.full ? pg.cached : pg.model, input: 'hello', ...ask.body },
    ask.full ? { headers: FULL } : {},
  );
  const events: OpenAI.Responses.ResponseStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  const final = await stream.finalResponse();
  return { events, final, row: await comparableUsageRow(pg, key, seen.requestId), upstream: fake().requests.at(-1)!.body };
}

/** What a client reads of a whole answer: text, reasoning summary and its seal, calls, status, usage counts. */
function answer(r: OpenAI.Responses.Response) {
  return {
    text: r.output_text,
    reasoning: r.output.flatMap((i) => (i.type === 'reasoning' ? i.summary.map((s) => s.text) : [])).join(''),
    signatures: r.output.flatMap((i) => (i.type === 'reasoning' && i.encrypted_content ? [i.encrypted_content] : [])),
    calls: r.output.flatMap((i) => (i.type === 'function_call' ? [{ name: i.name, arguments: i.arguments, call_id: i.call_id }] : [])),
    status: r.status,
    incomplete: r.incomplete_details,
    // the counts every path gives; the gateway's own encoding writes more detail fields beside them
    usage: r.usage && {
      input: r.usage.input_tokens,
      output: r.usage.output_tokens,
      total: r.usage.total_tokens,
      cached: r.usage.input_tokens_details?.cached_tokens,
      reasoning: r.usage.output_tokens_details?.reasoning_tokens,
    },
    model: r.model,
  };
}

const WEATHER: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  strict: false,
};

/** each with the request fields it needs */
const REPLIES: Array<[string, FakeBehaviour, Ask['body']]> = [
  ['text', { reply: { text: 'Forwarded as the upstream wrote it, caf\u00e9 and all.', usage: { input: 12, output: 9 } } }, {}],
  [
    'reasoning and text',
    {
      reply: {
        reasoning: { text: 'thinking it over', signature: 'gAAAA-sealed-1' },
        text: 'then the answer',
        usage: { input: 20, output: 30, reasoning: 12 },
      },
    },
    { reasoning: { summary: 'auto' }, include: ['reasoning.encrypted_content'] },
  ],
  [
    'a function call',
    { reply: { toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }], usage: { input: 8, output: 5 } } },
    { tools: [WEATHER] },
  ],
  ['a length finish', { reply: { text: 'cut', finish: 'length', usage: { input: 3, output: 1 } } }, {}],
];

/** An event as compared across the forwarded and native paths: the response objects' gateway id and model name left out. */
function comparable(e: OpenAI.Responses.ResponseStreamEvent) {
  if (!('response' in e)) return e;
  const { id: _id, model: _model, ...response } = e.response;
  return { ...e, response };
}

describe('Responses stream forwarding', () => {
  it.each(REPLIES)(
    '%s: the same events as the native path, the same answer as all paths, the same usage row',
    async (_name, behaviour, body) => {
      const forwarded = await streamed(behaviour, { body });
      const native = await streamed(behaviour, { body, full: true });
      const canonical = await streamed(behaviour, { body, key: GUARDED_KEY });
      // the cache layer drops the upstream's native events only from what it keeps: the client still gets them, one by one
      expect(forwarded.events.map(comparable)).toEqual(native.events.map(comparable));
      expect(answer(forwarded.final)).toEqual({ ...answer(native.final), model: pg.model });
      expect(native.final.model).toBe(pg.cached);
      expect(answer(canonical.final)).toEqual(answer(forwarded.final));
      expect(forwarded.row).toEqual(native.row);
      expect({ ...canonical.row, key_id: 'the guarded key' }).toEqual({ ...forwarded.row, key_id: 'the guarded key' });
      expect(forwarded.row).toMatchObject({ status: 'ok' });
      // the upstream's own item ids where its events are relayed; the gateway's encoder makes its own
      const ids = (r: OpenAI.Responses.Response) => r.output.map((i) => i.id!);
      expect(ids(forwarded.final).every((id) => /^(msg|rs|fc)_fake/.test(id))).toBe(true);
      expect(ids(canonical.final).some((id) => /_fake/.test(id))).toBe(false);
    },
  );

  it("forwards the upstream's events themselves, its sequence numbers included, with the gateway's id in the response events", async () => {
    const { events, final } = await streamed(REPLIES[0]![1]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.find((e) => e.type === 'response.output_text.delta')).toMatchObject({ item_id: 'msg_fake0001' });
    for (const e of events)
      if ('response' in e) expect(e.response).toMatchObject({ id: final.id, model: pg.model, previous_response_id: null });
    expect(final.id).toMatch(/^resp_/);
    expect(final.id).not.toBe('resp_fake0001');
  });

  it('forwards the bytes of OpenAI-shaped item events as they came (padding, logprobs, sequence numbers)', async () => {
    const { raw, item } = openAiShapedStream();
    const ask = async (full: boolean) => {
      fake().enqueue({ raw: { status: 200, headers: { 'content-type': 'text/event-stream' }, body: raw } });
      const res = await request(pg.gw.url)
        .post('/v1/responses')
        .set({ Authorization: `Bearer ${PLAIN_KEY}`, ...(full ? FULL : {}) })
        .send({ model: full ? pg.cached : pg.model, input: 'hello', stream: true });
      expect(res.status).toBe(200);
      return res.text;
    };
    const forwarded = await ask(false);
    expect(forwarded).toContain(item);
    expect(forwarded).not.toContain('resp_upstream01');
    expect(forwarded).not.toContain('gpt-5-mini-2025-08-07');
    // one native event per event re-encodes each: the same JSON, not the same bytes
    const native = await ask(true);
    expect(native).not.toContain('caf\\u00e9');
    expect(native).toContain('"delta":" caf\u00e9"');
  });

  it.each([
    ['forwarded', {}],
    ['native', { full: true }],
    ['canonical', { key: GUARDED_KEY }],
  ] as Array<[string, Ask]>)(
    '%s: GET returns the final response the stream ended with, and previous_response_id continues it',
    async (_path, ask) => {
      const first = await streamed(REPLIES[1]![1], { ...ask, body: REPLIES[1]![2] });
      const completed = first.events.find((e) => e.type === 'response.completed') as OpenAI.Responses.ResponseCompletedEvent;
      const got = await request(pg.gw.url).get(`/v1/responses/${first.final.id}`).set('Authorization', `Bearer ${PLAIN_KEY}`);
      expect(got.status).toBe(200);
      expect(got.body).toEqual(JSON.parse(JSON.stringify(completed.response)));
      const items = await request(pg.gw.url).get(`/v1/responses/${first.final.id}/input_items`).set('Authorization', `Bearer ${PLAIN_KEY}`);
      expect(items.body.data).toEqual([expect.objectContaining({ type: 'message', role: 'user' })]);

      const next = await streamed(
        { reply: { text: 'and more' } },
        { ...ask, body: { input: 'go on', previous_response_id: first.final.id } },
      );
      expect(next.final.previous_response_id).toBe(first.final.id);
      expect(next.final.output_text).toBe('and more');
      // the history the upstream got: the stored turn's question, its sealed reasoning and its answer, then the new input
      expect(next.upstream.input).toEqual([
        { role: 'user', content: [{ type: 'input_text', text: 'hello' }] },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'thinking it over' }], encrypted_content: 'gAAAA-sealed-1' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'then the answer', annotations: [] }] },
        { role: 'user', content: 'go on' },
      ]);
      expect(next.upstream).not.toHaveProperty('previous_response_id');
    },
  );

  it('a function call answered through previous_response_id on the forwarded path', async () => {
    const first = await streamed(REPLIES[2]![1], { body: { tools: [WEATHER] } });
    const output = { type: 'function_call_output' as const, call_id: 'call_w1', output: '18C' };
    const next = await streamed(
      { reply: { text: 'It is 18C.' } },
      { body: { tools: [WEATHER], input: [output], previous_response_id: first.final.id } },
    );
    expect(next.final.output_text).toBe('It is 18C.');
    expect(next.upstream.input).toEqual([
      { role: 'user', content: [{ type: 'input_text', text: 'hello' }] },
      { type: 'function_call', call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      output,
    ]);
  });

  it('responses.create with stream: true reads the same events', async () => {
    fake().enqueue(REPLIES[0]![1]);
    const { openai } = client(PLAIN_KEY);
    const stream = await openai.responses.create({ model: pg.model, input: 'hello', stream: true });
    let text = '';
    let last: OpenAI.Responses.ResponseStreamEvent | undefined;
    for await (const e of stream) {
      if (e.type === 'response.output_text.delta') text += e.delta;
      last = e;
    }
    expect(text).toBe('Forwarded as the upstream wrote it, caf\u00e9 and all.');
    expect(last).toMatchObject({ type: 'response.completed', response: { status: 'completed', model: pg.model } });
  });

  it('an upstream error mid-stream ends the stream as on the full path, numbered after the upstream events, with the same usage row', async () => {
    const failing: FakeBehaviour = { reply: { text: 'partial answer then a failure' }, streamErrorAfter: 6 };
    const ask = async (full: boolean) => {
      fake().enqueue(failing);
      const res = await request(pg.gw.url)
        .post('/v1/responses')
        .set({ Authorization: `Bearer ${PLAIN_KEY}`, ...(full ? FULL : {}) })
        .send({ model: full ? pg.cached : pg.model, input: 'hello', stream: true });
      expect(res.status).toBe(200);
      const events = res.text
        .split('\n\n')
        .filter(Boolean)
        .map((e) => JSON.parse(e.slice(e.indexOf('data: ') + 'data: '.length)) as Record<string, any>);
      return { events, row: await comparableUsageRow(pg, PLAIN_KEY, res.headers['x-request-id']!) };
    };
    const forwarded = await ask(false);
    const full = await ask(true);
    expect(forwarded.events.slice(-2).map((e) => e.type)).toEqual(['error', 'response.failed']);
    expect(forwarded.events.slice(-2).map((e) => [e.code, e.response?.error])).toEqual(
      full.events.slice(-2).map((e) => [e.code, e.response?.error]),
    );
    expect(forwarded.events.map((e) => e.sequence_number)).toEqual(forwarded.events.map((_, i) => i));
    expect(forwarded.events.some((e) => e.item_id === 'msg_fake0001')).toBe(true);
    expect(forwarded.row).toEqual(full.row);
  });
});

/**
 * A stream as api.openai.com writes it (sequence_number second, padding on deltas, the response's own id and dated
 * model), and one of its item events as written.
 */
function openAiShapedStream(): { raw: string; item: string } {
  const ev = responsesEvent;
  const response = upstreamResponse;
  const at = { item_id: 'msg_68b1c2d3e4', output_index: 0, content_index: 0 };
  const part = outputText;
  const message = (status: string, text?: string) => messageItem('msg_68b1c2d3e4', status, text);
  const usage = {
    input_tokens: 5,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 2,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 7,
  };
  const item =
    ev('response.output_item.added', 2, { output_index: 0, item: message('in_progress') }) +
    ev('response.content_part.added', 3, { ...at, part: part('') }) +
    ev('response.output_text.delta', 4, { ...at, delta: 'Hi', logprobs: [], obfuscation: 'Xy12ab' }) +
    // an escape JSON.stringify would not write: only the upstream's own bytes keep it
    ev('response.output_text.delta', 5, { ...at, delta: ' caf\u00e9', logprobs: [], obfuscation: 'Q' }).replace('\u00e9', '\\u00e9') +
    ev('response.output_text.done', 6, { ...at, text: 'Hi caf\u00e9', logprobs: [] }) +
    ev('response.content_part.done', 7, { ...at, part: part('Hi caf\u00e9') }) +
    ev('response.output_item.done', 8, { output_index: 0, item: message('completed', 'Hi caf\u00e9') });
  const raw =
    ev('response.created', 0, { response: response('in_progress') }) +
    ev('response.in_progress', 1, { response: response('in_progress') }) +
    item +
    ev('response.completed', 9, { response: response('completed', { output: [message('completed', 'Hi caf\u00e9')], usage }) });
  return { raw, item };
}
