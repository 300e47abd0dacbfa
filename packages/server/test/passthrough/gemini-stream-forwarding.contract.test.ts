import { GoogleGenAI, type GenerateContentResponse } from '@google/genai';
import request from 'supertest';
import type { FakeBehaviour } from '@gateway/testkit';
import { comparableUsageRow, GUARDED_KEY, PLAIN_KEY, startForwardingGateway, type ForwardingGateway } from '../support/forwarding-gateway';

/**
 * Same-dialect stream forwarding (core stream-forwarding.ts) for Gemini's streamGenerateContent: a Gemini client's
 * stream served by a Google upstream reaches it as the upstream's own events, with the gateway's responseId and the
 * model name the client asked for written in. Driven by the official `@google/genai` SDK against the same scripted
 * upstream through both paths: the forwarded one (a key without guardrails) and the full one (a model with a
 * response cache, asked not to read or keep the answer, and a key whose output guardrail never matches, either of
 * which takes the offer back). The SDK reads the same text, finish reason and final usage either way, and the usage
 * row is the same; the forwarded events are told apart only by what the upstream wrote that the full path does not
 * (a usageMetadata on every event, no `safetyRatings: []`).
 */

let pg: ForwardingGateway;
const fake = () => pg.fakes.google!;

beforeAll(async () => {
  pg = await startForwardingGateway('google');
});
afterAll(() => pg?.stop());
beforeEach(() => fake().reset());

/**
 * The SDK's chunks of one streamed answer and the usage row it left. The full path's reference is the cached model,
 * asked not to read or keep the answer (`no-cache, no-store`): the cache layer still stands between, so the offer is
 * withdrawn, and nothing else differs.
 */
async function streamed(key: string, behaviour: FakeBehaviour, opts: { full?: boolean; config?: object } = {}) {
  fake().enqueue(behaviour);
  let requestId = '';
  const ai = new GoogleGenAI({
    apiKey: key,
    httpOptions: {
      baseUrl: pg.gw.url,
      headers: opts.full ? { 'cache-control': 'no-cache, no-store' } : {},
      fetch: async (...args: Parameters<typeof fetch>) => {
        const res = await fetch(...args);
        requestId = res.headers.get('x-request-id') ?? '';
        return res;
      },
    } as object,
  });
  const chunks: GenerateContentResponse[] = [];
  const stream = await ai.models.generateContentStream({ model: opts.full ? pg.cached : pg.model, contents: 'hello', config: opts.config });
  for await (const c of stream) chunks.push(c);
  return { chunks, row: await comparableUsageRow(pg, key, requestId) };
}

/** What a client reads of a whole answer: text, thoughts, calls, finish reason, the last usage, the model. */
function answer(chunks: GenerateContentResponse[]) {
  const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
  const last = chunks.at(-1)!;
  return {
    text: parts.map((p) => (p.thought ? '' : (p.text ?? ''))).join(''),
    thoughts: parts.map((p) => (p.thought ? (p.text ?? '') : '')).join(''),
    calls: parts.filter((p) => p.functionCall).map((p) => ({ name: p.functionCall!.name, args: p.functionCall!.args })),
    finishReason: last.candidates?.[0]?.finishReason,
    usage: last.usageMetadata,
    models: [...new Set(chunks.map((c) => c.modelVersion))],
    responseIds: new Set(chunks.map((c) => c.responseId)).size,
  };
}

/** each with its request config (jest passes a callback for a missing third value) */
const REPLIES: Array<[string, FakeBehaviour, object | undefined]> = [
  ['text', { reply: { text: 'Forwarded as the upstream wrote it, caf\u00e9 and all.', usage: { input: 12, output: 9 } } }, undefined],
  [
    'thoughts and text',
    { reply: { reasoning: { text: 'thinking it over' }, text: 'then the answer', usage: { input: 20, output: 30, reasoning: 12 } } },
    { thinkingConfig: { includeThoughts: true } },
  ],
  ['a function call', { reply: { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }], usage: { input: 8, output: 5 } } }, undefined],
  ['a length finish', { reply: { text: 'cut', finish: 'length', usage: { input: 3, output: 1 } } }, undefined],
];

describe('Gemini stream forwarding', () => {
  it.each(REPLIES)('%s: the same answer and the same usage row as the full path', async (_name, behaviour, config) => {
    const forwarded = await streamed(PLAIN_KEY, behaviour, { config });
    const full = await streamed(PLAIN_KEY, behaviour, { config, full: true });
    expect(answer(forwarded.chunks)).toEqual({ ...answer(full.chunks), models: [pg.model] });
    expect(answer(full.chunks).models).toEqual([pg.cached]);
    expect(answer(forwarded.chunks).responseIds).toBe(1);
    expect(forwarded.row).toEqual(full.row);
    expect(forwarded.row).toMatchObject({ status: 'ok' });
  });

  it("forwards the upstream's events themselves, with the gateway's responseId and model name written in", async () => {
    const forwarded = await streamed(PLAIN_KEY, REPLIES[0]![1]);
    const full = await streamed(PLAIN_KEY, REPLIES[0]![1], { full: true });
    // the fake writes a usageMetadata on every event; the full path only on the last, with `safetyRatings: []` in each
    expect(forwarded.chunks.every((c) => c.usageMetadata)).toBe(true);
    expect(forwarded.chunks[0]!.candidates![0]).not.toHaveProperty('safetyRatings');
    expect(full.chunks[0]!.usageMetadata).toBeUndefined();
    expect(full.chunks[0]!.candidates![0]!.safetyRatings).toEqual([]);
    for (const c of forwarded.chunks) expect(c).toMatchObject({ modelVersion: pg.model, responseId: expect.not.stringMatching(/fake/) });
  });

  it('a key with an output guardrail takes the full path', async () => {
    const guarded = await streamed(GUARDED_KEY, REPLIES[0]![1]);
    expect(guarded.chunks[0]!.candidates![0]!.safetyRatings).toEqual([]);
    expect(answer(guarded.chunks).text).toBe('Forwarded as the upstream wrote it, caf\u00e9 and all.');
  });

  it('an upstream error mid-stream ends the stream as on the full path, with the same usage row', async () => {
    const failing: FakeBehaviour = { reply: { text: 'partial answer then a failure' }, streamErrorAfter: 2 };
    const ask = async (full: boolean) => {
      fake().enqueue(failing);
      const res = await request(pg.gw.url)
        .post(`/v1beta/models/${full ? pg.cached : pg.model}:streamGenerateContent?alt=sse`)
        .set({ 'x-goog-api-key': PLAIN_KEY, ...(full ? { 'cache-control': 'no-cache, no-store' } : {}) })
        .send({ contents: [{ role: 'user', parts: [{ text: 'hello' }] }] });
      expect(res.status).toBe(200);
      const events = res.text
        .split('\n\n')
        .filter(Boolean)
        .map((e) => JSON.parse(e.slice('data: '.length)) as Record<string, unknown>);
      return { events, row: await comparableUsageRow(pg, PLAIN_KEY, res.headers['x-request-id']!) };
    };
    const forwarded = await ask(false);
    const full = await ask(true);
    expect(forwarded.events.length).toBe(full.events.length);
    expect(forwarded.events.at(-1)).toEqual(full.events.at(-1));
    expect(forwarded.events.at(-1)).toMatchObject({ error: { code: expect.any(Number) } });
    expect(forwarded.row).toEqual(full.row);
  });
});
