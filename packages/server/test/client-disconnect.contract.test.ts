import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bootstrapConfigKeys } from '../src/bootstrap';
import { buildConfig } from '../src/config';
import { createGateway, type Gateway } from '../src/gateway';
import { eventually } from '@gateway/testkit';
import { capturedLog } from './support/captured-log';
import { ALPHA_KEY, inMemoryGatewayEnv, testConfigFile } from './support/test-gateway';

/**
 * A client that leaves a non-streaming request before the answer is a client-closed request (nginx's 499), not
 * a gateway failure: the access log and `gateway_requests_total` say 499, and no error is logged.
 */
let gw: Gateway;
let gatewayUrl = '';
let upstream: http.Server;
const { logger, lines } = capturedLog();
/** Upstream requests: each resolves `closed` when the gateway drops its connection. */
const held: Array<{ closed: Promise<void> }> = [];
let arrived: () => void = () => undefined;

beforeAll(async () => {
  // An OpenAI-dialect upstream that never answers: the request is in flight until someone leaves.
  upstream = http.createServer((req, res) => {
    held.push({ closed: new Promise<void>((resolve) => res.on('close', () => resolve())) });
    arrived();
    req.resume();
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const base = testConfigFile();
  const config = testConfigFile({
    providers: [
      ...base.providers,
      { id: 'held', type: 'openai', baseUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`, apiKey: 'held-key' },
    ],
    models: [...(base.models ?? []), { id: 'm-held', kind: 'text', provider: 'held', upstreamModel: 'gpt-4o-mini' }],
    groups: [
      { name: 'default', models: ['m-held'] },
      { name: 'vip', models: ['*'] },
    ],
  });
  gw = await createGateway(await inMemoryGatewayEnv(), { config: buildConfig('t', config), logger });
  await bootstrapConfigKeys(gw.stores, gw.config);
  const server = await gw.listen(0, '127.0.0.1');
  gatewayUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await gw?.close();
  upstream.closeAllConnections();
  await new Promise<void>((r) => upstream.close(() => r()));
});

it('a client that leaves a non-streaming request is logged and counted as 499, not 500', async () => {
  const upstreamReached = new Promise<void>((r) => (arrived = r));
  const req = http.request(`${gatewayUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' },
  });
  req.on('error', () => undefined);
  req.end(JSON.stringify({ model: 'm-held', messages: [{ role: 'user', content: 'hi' }] }));
  await upstreamReached;
  req.destroy();
  // the gateway stops its upstream call as the client leaves
  await held[0]!.closed;

  await eventually(() => expect(lines.find((l) => l.path === '/v1/chat/completions')).toMatchObject({ level: 'info', status: 499 }));
  await eventually(async () => {
    const metrics = await fetch(`${gatewayUrl}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/gateway_requests_total\{format="openai-chat",model="m-held",status="499",client_fault="false"\} 1/);
    expect(metrics).not.toMatch(/gateway_requests_total\{[^}]*status="5\d\d"[,}]/);
  });
  expect(lines.filter((l) => l.level === 'error')).toEqual([]);
});
