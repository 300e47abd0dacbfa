import { eventually } from '../eventually';
import { collectStream, GatewayError, type CallContext, type TextModelPort, type TextRequest, type TextStreamPart } from '@gateway/core';
import { createRedactor, redactingPorts } from '@gateway/provider-kit';
import { describeConformanceCases, TEXT_CASES } from '@gateway/provider-kit/testing';
import { controlOf } from './kit-control';
import { refusedUrl, startFakeUpstream, type FakeDialectName, type FakeUpstream } from './fake-upstream-server';
import { MALFORMED_ANSWERS } from './malformed-answers';

export interface ConformanceTarget {
  url: string;
  apiKey: string;
  timeouts?: { connectMs?: number; firstByteMs?: number; idleMs?: number; totalMs?: number };
}

export interface TextModelConformanceOptions {
  dialect: FakeDialectName;
  /** builds the adapter under test against a fake upstream (or a dead address) */
  make(target: ConformanceTarget): TextModelPort;
  /** false where the API reports no separate reasoning-token count (Anthropic) */
  reportsReasoningTokens?: boolean;
}

/** short enough that the kit's never-answering upstream fails quickly, long enough for a loaded machine */
const KIT_TIMEOUTS = { firstByteMs: 1000, idleMs: 1000, totalMs: 20_000 };
const ctx = (signal = new AbortController().signal): CallContext => ({ signal, requestId: 'conformance' });
const ask = (text: string, extra: Partial<TextRequest> = {}): TextRequest => ({
  model: 'upstream-model-1',
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  ...extra,
});
const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

async function failure(p: Promise<unknown>): Promise<GatewayError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw new Error(`expected a GatewayError, got ${String(e)}`);
  }
  throw new Error('expected a failure');
}

async function drain(parts: AsyncIterable<TextStreamPart>): Promise<TextStreamPart[]> {
  const out: TextStreamPart[] = [];
  for await (const p of parts) out.push(p);
  return out;
}

/** Every outbound text adapter runs this against the fake upstream of its dialect. */
export function describeTextModelConformance(name: string, opts: TextModelConformanceOptions): void {
  describe(`TextModelPort conformance: ${name}`, () => {
    let fake: FakeUpstream;
    let model: TextModelPort;
    const make = (t: Partial<ConformanceTarget> = {}) => opts.make({ url: fake.url, apiKey: fake.apiKey, ...t });
    beforeAll(async () => {
      fake = await startFakeUpstream(opts.dialect);
      model = make();
    });
    afterAll(async () => fake.close());
    beforeEach(() => fake.reset());

    // the kit's cases, as `npx gateway adapter:test` runs them against an outside package: the adapter behind the
    // redactor of its key, as the gateway hands it out
    const asServed = (apiKey: string) => redactingPorts({ text: make({ apiKey, timeouts: KIT_TIMEOUTS }) }, createRedactor([apiKey])).text;
    describeConformanceCases('the adapter kit', TEXT_CASES, () => ({
      fake: controlOf(fake),
      port: asServed(fake.apiKey),
      portWithKey: asServed,
      key: fake.apiKey,
    }));

    describe('answers', () => {
      it('generates text, sends the upstream model name and records the upstream request id', async () => {
        const r = await model.generate(ask('hello there'), ctx());
        expect(r.content).toEqual([{ type: 'text', text: `fake-${opts.dialect} says: hello there` }]);
        expect(r.finishReason).toBe('stop');
        expect(r.usage).toMatchObject({ inputTokens: 11, outputTokens: 7, totalTokens: 18 });
        expect(r.upstreamRequestId).toMatch(/^req_fake_/);
        expect(JSON.stringify({ p: fake.requests[0]!.path, b: fake.requests[0]!.body })).toContain('upstream-model-1');
      });

      it('sends a tool result back with its call', async () => {
        const req: TextRequest = {
          model: 'upstream-model-1',
          tools: [WEATHER_TOOL],
          messages: [
            { role: 'user', content: [{ type: 'text', text: 'weather in Paris?' }] },
            { role: 'assistant', content: [{ type: 'tool-call', id: 'call_w1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
            { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_w1', content: [{ type: 'text', text: 'sunny, 21 C' }] }] },
          ],
        };
        await model.generate(req, ctx());
        const sent = JSON.stringify(fake.requests[0]!.body);
        expect(sent).toContain('sunny, 21 C');
        expect(sent).toContain('Paris');
      });

      it('sends inline images', async () => {
        const req: TextRequest = {
          model: 'upstream-model-1',
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'what is this?' },
                { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUg==' },
              ],
            },
          ],
        };
        await model.generate(req, ctx());
        expect(JSON.stringify(fake.requests[0]!.body)).toContain('iVBORw0KGgoAAAANSUhEUg==');
      });

      it.each([false, true])('maps reasoning and usage with cached and reasoning tokens (stream: %s)', async (stream) => {
        fake.enqueue({
          reply: {
            reasoning: { text: 'thinking hard', signature: 'sig-1' },
            text: 'done',
            usage: { input: 100, output: 40, cached: 30, reasoning: 12 },
          },
        });
        const req = ask('think', { reasoning: { effort: 'medium' } });
        const r = stream ? await collectStream(req.model, model.stream(req, ctx())) : await model.generate(req, ctx());
        expect(r.content.find((c) => c.type === 'reasoning')).toMatchObject({ text: 'thinking hard' });
        expect(r.content.find((c) => c.type === 'text')).toMatchObject({ text: 'done' });
        expect(r.usage).toMatchObject({ inputTokens: 100, outputTokens: 40, cachedInputTokens: 30 });
        if (opts.reportsReasoningTokens !== false) expect(r.usage.reasoningTokens).toBe(12);
      });

      it('maps a length finish', async () => {
        fake.enqueue({ reply: { text: 'cut', finish: 'length' } });
        expect((await model.generate(ask('long'), ctx())).finishReason).toBe('length');
      });

      it('reuses the keep-alive connection', async () => {
        const before = fake.connections;
        for (let i = 0; i < 3; i++) await model.generate(ask(`again ${i}`), ctx());
        expect(fake.connections - before).toBeLessThanOrEqual(1);
      });
    });

    describe('upstream failures', () => {
      it.each([500, 502, 503, 504, 529])('%i → upstream_unavailable, retryable', async (status) => {
        fake.enqueue({ status });
        const e = await failure(model.generate(ask('x'), ctx()));
        expect(e.reason).toBe('upstream_unavailable');
        expect(e.retryable).toBe(true);
      });

      it('400 → invalid_request keeping the upstream message', async () => {
        fake.enqueue({ status: 400, errorMessage: 'messages: roles must alternate' });
        const e = await failure(model.generate(ask('x'), ctx()));
        expect(e).toMatchObject({ reason: 'invalid_request', message: 'messages: roles must alternate' });
        expect(e.retryable).toBe(false);
      });

      it('404 → invalid_request: model not found upstream', async () => {
        fake.enqueue({ status: 404, errorMessage: 'no such model' });
        expect(await failure(model.generate(ask('x'), ctx()))).toMatchObject({
          reason: 'invalid_request',
          code: 'upstream_model_not_found',
        });
      });

      it('a rejected upstream key → upstream_auth_failed', async () => {
        const e = await failure(make({ apiKey: 'sk-wrong-upstream-key-123456' }).generate(ask('x'), ctx()));
        expect(e).toMatchObject({ reason: 'upstream_error', code: 'upstream_auth_failed' });
      });

      it('a redirect is not followed', async () => {
        fake.enqueue({ raw: { status: 302, headers: { location: `${fake.url}/elsewhere` }, body: '' } });
        expect(await failure(model.generate(ask('x'), ctx()))).toMatchObject({ reason: 'upstream_error', code: 'upstream_redirect' });
        expect(fake.requests).toHaveLength(1);
      });

      it('connection refused → upstream_unavailable', async () => {
        const dead = make({ url: await refusedUrl(new URL(fake.url).pathname.replace(/\/$/, '')) });
        expect(await failure(dead.generate(ask('x'), ctx()))).toMatchObject({ reason: 'upstream_unavailable' });
      });

      it('connection reset before headers → upstream_unavailable', async () => {
        fake.enqueue({ reset: 'before-headers' });
        expect(await failure(model.generate(ask('x'), ctx()))).toMatchObject({ reason: 'upstream_unavailable' });
      });

      it('no headers within firstByteMs → upstream_timeout', async () => {
        fake.enqueue({ hang: true });
        const slow = make({ timeouts: { firstByteMs: 150 } });
        expect(await failure(slow.generate(ask('x'), ctx()))).toMatchObject({ reason: 'upstream_timeout', upstreamCode: 'first byte' });
      });

      it('a silent stream past idleMs → upstream_timeout', async () => {
        fake.enqueue({ chunkDelayMs: 400 });
        const idle = make({ timeouts: { idleMs: 120 } });
        expect(await failure(drain(idle.stream(ask('x'), ctx())))).toMatchObject({ reason: 'upstream_timeout', upstreamCode: 'idle' });
      });

      it('a call past totalMs → upstream_timeout', async () => {
        fake.enqueue({ chunkDelayMs: 60 });
        const short = make({ timeouts: { totalMs: 150 } });
        expect(await failure(drain(short.stream(ask('x'), ctx())))).toMatchObject({ reason: 'upstream_timeout', upstreamCode: 'total' });
      });

      it('a stream cut before its end marker → error after the parts already read', async () => {
        fake.enqueue({ truncateAfter: 2 });
        const seen: TextStreamPart[] = [];
        const e = await failure(
          (async () => {
            for await (const p of model.stream(ask('x'), ctx())) seen.push(p);
          })(),
        );
        expect(e).toMatchObject({ reason: 'upstream_unavailable', code: 'upstream_stream_truncated' });
        expect(seen.some((p) => p.type === 'finish')).toBe(false);
      });

      it('a connection reset mid-stream → upstream_unavailable', async () => {
        fake.enqueue({ reset: 2 });
        expect(await failure(drain(model.stream(ask('x'), ctx())))).toMatchObject({ reason: 'upstream_unavailable' });
      });

      it("the upstream's own error event mid-stream → GatewayError", async () => {
        fake.enqueue({ streamErrorAfter: 2 });
        const e = await failure(drain(model.stream(ask('x'), ctx())));
        expect(e.reason).toBe('upstream_unavailable');
      });

      it.each(MALFORMED_ANSWERS[opts.dialect].answers)(
        'a wrongly typed answer %s → upstream_malformed_response, not a crash',
        async (body) => {
          fake.enqueue({ raw: { status: 200, headers: { 'content-type': 'application/json' }, body } });
          const e = await failure(model.generate(ask('x'), ctx()));
          expect(e).toMatchObject({ reason: 'upstream_malformed_response', code: 'upstream_malformed_response', status: 502 });
        },
      );

      it('a wrongly typed stream chunk → upstream_malformed_response, not a crash', async () => {
        const body = MALFORMED_ANSWERS[opts.dialect].chunk;
        fake.enqueue({ raw: { status: 200, headers: { 'content-type': 'text/event-stream' }, body } });
        const e = await failure(drain(model.stream(ask('x'), ctx())));
        expect(e).toMatchObject({ reason: 'upstream_malformed_response', code: 'upstream_malformed_response', status: 502 });
      });

      it('a caller abort stops the call as client_closed', async () => {
        fake.enqueue({ hang: true });
        const ac = new AbortController();
        const sent = fake.requests.length;
        // abort once the upstream holds the request, not after a guessed delay
        void eventually(() => fake.requests.length > sent).then(() => ac.abort());
        expect(await failure(model.generate(ask('x'), ctx(ac.signal)))).toMatchObject({ code: 'client_closed' });
      });
    });
  });
}
