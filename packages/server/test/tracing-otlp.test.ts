import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ALPHA_KEY, startTestGateway } from './support/test-gateway';
import { tracingFromEnv } from '@gateway/observability';

/** A stand-in OpenTelemetry collector on loopback: records what is posted to it. */
async function startCollector() {
  const posts: Array<{ path: string; contentType: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', contentType: String(req.headers['content-type']), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, posts, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

it('with OTEL_EXPORTER_OTLP_ENDPOINT set, the OTLP/HTTP exporter posts the spans to the collector', async () => {
  const collector = await startCollector();
  const tracing = tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: `${collector.url}/`, OTEL_SERVICE_NAME: 'gateway-under-test' });
  const gw = await startTestGateway({ env: { tracing } });
  try {
    await request(gw.app)
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${ALPHA_KEY}`)
      .send({ model: 'sim-chat', messages: [{ role: 'user', content: 'secret plans for the weekend' }] })
      .expect(200);
  } finally {
    await gw.stop(); // shutting down exports what the batch holds
    await collector.close();
  }
  expect(collector.posts.length).toBeGreaterThan(0);
  expect(collector.posts.every((p) => p.path === '/v1/traces')).toBe(true);
  const body = collector.posts.map((p) => p.body).join('\n');
  expect(body).toContain('gateway-under-test');
  expect(body).toContain('gen_ai.request.model');
  expect(body).toContain('POST /v1/chat/completions');
  expect(body).not.toContain('secret plans');
  expect(body).not.toContain(ALPHA_KEY);
});

it('an endpoint that is not an http(s) URL stops start-up with one line naming the variable', async () => {
  const tracing = tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://collector:4317' });
  await expect(startTestGateway({ env: { tracing } })).rejects.toMatchObject({
    reason: 'bad_otlp_endpoint',
    message: expect.stringContaining('OTEL_EXPORTER_OTLP_ENDPOINT'),
  });
});
