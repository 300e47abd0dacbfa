/**
 * A client that trickles its headers (one line at a time, never finishing) is dropped once the configured
 * headers timeout has passed, while a well-behaved request on the same server is answered.
 */
import net from 'node:net';
import { readEnv } from '../src/env.schema';
import { DEFAULT_LISTEN_TIMEOUTS } from '@gateway/http-kit';
import { listenTimeoutsOf } from '../src/listen-timeouts';

const listenTimeoutsFromEnv = (e: NodeJS.ProcessEnv) => listenTimeoutsOf(readEnv(e));
import { startTestGateway, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ env: { listenTimeouts: { headersMs: 400, requestMs: 2000, keepAliveMs: 300 } } });
});
afterAll(async () => {
  await gw.stop();
});

/** Sends one header line every 50 ms until the server closes the socket; resolves with what it answered and when. */
function trickle(port: number): Promise<{ answer: string; ms: number; lines: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let lines = 0;
    socket.write('GET /healthz HTTP/1.1\r\nHost: gateway.test\r\n');
    const timer = setInterval(() => socket.write(`X-Slow-${lines++}: ${'a'.repeat(8)}\r\n`), 50);
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, ms: Date.now() - started, lines });
    });
  });
}

describe('slow clients', () => {
  it('a client trickling its headers is dropped (408) after the headers timeout; others are served', async () => {
    const port = Number(new URL(gw.url).port);
    const slow = trickle(port);
    expect((await fetch(`${gw.url}/healthz`)).status).toBe(200);
    const r = await slow;
    expect(r.answer).toMatch(/^HTTP\/1\.1 408/);
    // it kept sending for a while (so the drop is the timeout, not a parse error) and far less than the 20 s default
    expect(r.lines).toBeGreaterThan(2);
    expect(r.ms).toBeLessThan(DEFAULT_LISTEN_TIMEOUTS.headersMs / 2);
  });

  it('the timeouts come from the environment, with defaults, and a headers timeout above the request timeout stops start-up', () => {
    expect(listenTimeoutsFromEnv({})).toEqual(DEFAULT_LISTEN_TIMEOUTS);
    expect(
      listenTimeoutsFromEnv({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '700' }),
    ).toEqual({
      headersMs: 1000,
      requestMs: 5000,
      keepAliveMs: 700,
    });
    expect(() => listenTimeoutsFromEnv({ HTTP_HEADERS_TIMEOUT_MS: '9000', HTTP_REQUEST_TIMEOUT_MS: '5000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS/,
    );
    expect(() => listenTimeoutsFromEnv({ HTTP_REQUEST_TIMEOUT_MS: 'soon' })).toThrow(/HTTP_REQUEST_TIMEOUT_MS/);
  });
});
