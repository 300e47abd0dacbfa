import http from 'node:http';
import request from 'supertest';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { eventually, startFakeUpstream, type FakeUpstream } from '@gateway/testkit';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

const PROMPT = 'a prompt that must never reach a span 7f3a';

/** The request's server span and the attempt spans under it, once the server span has ended. */
async function spansOf(exporter: InMemorySpanExporter, requestId: string) {
  let server: ReadableSpan | undefined;
  await eventually(() => {
    server = exporter.getFinishedSpans().find((s) => s.kind === SpanKind.SERVER && s.attributes['gateway.request_id'] === requestId);
    return server !== undefined;
  });
  const attempts = exporter
    .getFinishedSpans()
    .filter((s) => s.kind === SpanKind.CLIENT && s.parentSpanContext?.spanId === server!.spanContext().spanId)
    .sort((a, b) => (a.startTime[0] - b.startTime[0]) * 1e9 + (a.startTime[1] - b.startTime[1]));
  return { server: server!, attempts };
}

describe('traces with the in-memory exporter', () => {
  const exporter = new InMemorySpanExporter();
  let gw: TestGateway;
  let primary: FakeUpstream;
  let secondary: FakeUpstream;

  beforeAll(async () => {
    [primary, secondary] = [await startFakeUpstream('openai'), await startFakeUpstream('openai')];
    const base = testConfigFile();
    gw = await startTestGateway({
      spanExporter: exporter,
      config: testConfigFile({
        providers: [
          ...base.providers,
          { id: 'primary', type: 'openai', baseUrl: primary.url, apiKey: primary.apiKey },
          { id: 'backup', type: 'openai-compatible', baseUrl: secondary.url, apiKey: secondary.apiKey },
        ],
        models: [
          ...base.models,
          {
            id: 'fo-chat',
            kind: 'text',
            deployments: [
              { provider: 'primary', upstreamModel: 'p-model', priority: 0 },
              { provider: 'backup', upstreamModel: 's-model', priority: 1 },
            ],
          },
        ],
      }),
    });
  });
  afterAll(async () => {
    await gw.stop();
    await Promise.all([primary.close(), secondary.close()]);
  });
  beforeEach(() => {
    exporter.reset();
    primary.reset();
    secondary.reset();
  });

  it('a chat through the simulator: a server span and a GenAI child span with model, provider and token usage', async () => {
    const res = await request(gw.app)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-chat', messages: [{ role: 'user', content: PROMPT }] })
      .expect(200);
    const { server, attempts } = await spansOf(exporter, res.headers['x-request-id']!);

    expect(server.name).toBe('POST /v1/chat/completions');
    expect(server.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/chat/completions',
      'http.response.status_code': 200,
      'url.path': '/v1/chat/completions',
      'gateway.model': 'sim-chat',
      'gateway.provider': 'sim',
      'gateway.attempts': 1,
    });
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    expect(attempts).toHaveLength(1);
    const [a] = attempts;
    expect(a!.name).toBe(`chat ${a!.attributes['gen_ai.request.model']}`);
    expect(a!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'simulator',
      'gen_ai.system': 'simulator',
      'gen_ai.request.model': expect.any(String),
      'gen_ai.usage.input_tokens': res.body.usage.prompt_tokens,
      'gen_ai.usage.output_tokens': res.body.usage.completion_tokens,
      'gen_ai.response.finish_reasons': ['stop'],
      'gateway.model': 'sim-chat',
      'gateway.provider': 'sim',
      'gateway.attempt.outcome': 'ok',
    });
    expect(a!.spanContext().traceId).toBe(server.spanContext().traceId);
    // the attempt lies within the request
    expect(a!.startTime[0] * 1e3 + a!.startTime[1] / 1e6).toBeGreaterThanOrEqual(server.startTime[0] * 1e3 + server.startTime[1] / 1e6);
    const everything = JSON.stringify(exporter.getFinishedSpans().map((s) => [s.name, s.attributes, s.events]));
    expect(everything).not.toContain(PROMPT);
    expect(everything).not.toContain(ALPHA_KEY);
  });

  it('a streamed chat: the attempt span carries the usage of the final chunk', async () => {
    const res = await request(gw.app)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-chat', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: PROMPT }] })
      .expect(200);
    const usage = res.text
      .split('\n')
      .filter((l) => l.startsWith('data: {'))
      .map((l) => JSON.parse(l.slice(6)))
      .find((c) => c.usage)?.usage;
    const { attempts } = await spansOf(exporter, res.headers['x-request-id']!);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': usage.prompt_tokens,
      'gen_ai.usage.output_tokens': usage.completion_tokens,
    });
  });

  it('a failover: one span per attempt, the first marked as an error with its upstream status', async () => {
    primary.enqueue({ status: 500 });
    const res = await request(gw.app)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${BETA_KEY}`)
      .send({ model: 'fo-chat', messages: [{ role: 'user', content: PROMPT }] })
      .expect(200);
    const { server, attempts } = await spansOf(exporter, res.headers['x-request-id']!);
    expect(server.attributes).toMatchObject({ 'gateway.attempts': 2, 'gateway.provider': 'backup' });
    expect(attempts.map((s) => s.name)).toEqual(['chat p-model', 'chat s-model']);
    const [failed, ok] = attempts;
    expect(failed!.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed!.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'p-model',
      'http.response.status_code': 500,
      'error.type': expect.any(String),
      'gateway.provider': 'primary',
    });
    expect(failed!.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
    expect(ok!.status.code).toBe(SpanStatusCode.UNSET);
    expect(ok!.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai-compatible',
      'gen_ai.request.model': 's-model',
      'gen_ai.response.model': 's-model',
      'gen_ai.response.id': 'chatcmpl-fake0001',
      'gateway.provider': 'backup',
      'gateway.attempt.outcome': 'ok',
    });
    expect(ok!.attributes['error.type']).toBeUndefined();
    expect(typeof ok!.attributes['gen_ai.usage.input_tokens']).toBe('number');
    const everything = JSON.stringify(exporter.getFinishedSpans().map((s) => s.attributes));
    expect(everything).not.toContain(primary.apiKey);
    expect(everything).not.toContain(PROMPT);
  });

  it("continues the caller's traceparent", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const res = await request(gw.app)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${ALPHA_KEY}`)
      .set('traceparent', `00-${traceId}-${parentId}-01`)
      .send({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] })
      .expect(200);
    const { server, attempts } = await spansOf(exporter, res.headers['x-request-id']!);
    expect(server.spanContext().traceId).toBe(traceId);
    expect(server.parentSpanContext).toMatchObject({ traceId, spanId: parentId, isRemote: true });
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.spanContext().traceId).toBe(traceId);
  });

  it('a refusal before any upstream (401) still gets its server span, and no attempt span', async () => {
    const res = await request(gw.app)
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer sk-not-a-key-000000000')
      .send({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] })
      .expect(401);
    const { server, attempts } = await spansOf(exporter, res.headers['x-request-id']!);
    expect(server.attributes['http.response.status_code']).toBe(401);
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    expect(attempts).toHaveLength(0);
  });

  it('a caller who leaves mid-call: the server span says 499 and the cancelled attempt, still under it, is no error', async () => {
    primary.enqueue({ hang: true });
    const requestId = 'req-tracing-leaves-0001';
    const req = http.request(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BETA_KEY}`, 'content-type': 'application/json', 'x-request-id': requestId },
    });
    req.on('error', () => undefined);
    req.end(JSON.stringify({ model: 'fo-chat', messages: [{ role: 'user', content: 'hi' }] }));
    await eventually(() => primary.requests.length === 1);
    req.destroy();
    const { server, attempts } = await spansOf(exporter, requestId);
    expect(server.attributes['http.response.status_code']).toBe(499);
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.attributes).toMatchObject({ 'gateway.attempt.outcome': 'cancelled', 'gen_ai.request.model': 'p-model' });
    expect(attempts[0]!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('an image generation: a generate_content attempt span', async () => {
    const res = await request(gw.app)
      .post('/v1/images/generations')
      .set('authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-image', prompt: PROMPT, size: '256x256' })
      .expect(200);
    const { server, attempts } = await spansOf(exporter, res.headers['x-request-id']!);
    expect(server.name).toBe('POST /v1/images/generations');
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.attributes).toMatchObject({ 'gen_ai.operation.name': 'generate_content', 'gen_ai.provider.name': 'simulator' });
    expect(JSON.stringify(attempts[0]!.attributes)).not.toContain(PROMPT);
  });

  it('registers its provider globally while it runs', () => {
    expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(true);
  });
});

describe('tracing off', () => {
  it('with no endpoint set, no tracer provider is registered and requests still answer', async () => {
    const gw = await startTestGateway();
    try {
      expect(gw.env.tracing).toBeUndefined();
      await request(gw.app)
        .post('/v1/chat/completions')
        .set('authorization', `Bearer ${ALPHA_KEY}`)
        .send({ model: 'sim-chat', messages: [{ role: 'user', content: 'hi' }] })
        .expect(200);
      const probe = trace.getTracer('probe').startSpan('probe');
      expect(probe.isRecording()).toBe(false);
      expect(trace.isSpanContextValid(probe.spanContext())).toBe(false);
    } finally {
      await gw.stop();
    }
  });
});
