import http from 'node:http';
import { ALPHA_KEY, startTestGateway, testConfigFile } from './support/test-gateway';

describe('graceful shutdown', () => {
  it('finishes an in-flight stream, then stops; new connections are refused', async () => {
    const gw = await startTestGateway({
      config: testConfigFile({ providers: [{ id: 'sim', type: 'simulator', options: { chunkDelayMs: 60 } }] }),
      env: { shutdownGraceMs: 10000 },
    });
    const body = await new Promise<string>((resolve, reject) => {
      const req = http.request(
        `${gw.url}/v1/chat/completions`,
        { method: 'POST', headers: { authorization: `Bearer ${ALPHA_KEY}`, 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          let closing: Promise<void> | undefined;
          res.on('data', (d) => {
            text += d;
            closing ??= gw.stop(); // SIGTERM-equivalent while the stream is still going
          });
          res.on('end', () => closing!.then(() => resolve(text), reject));
        },
      );
      req.on('error', reject);
      req.end(
        JSON.stringify({
          model: 'sim-chat',
          stream: true,
          messages: [{ role: 'user', content: 'a long enough prompt to stream in several chunks' }],
        }),
      );
    });
    expect(body).toContain('"finish_reason":"stop"');
    expect(body.trim().endsWith('data: [DONE]')).toBe(true);
    await expect(fetch(`${gw.url}/healthz`)).rejects.toThrow();
  });
});

/** Starts a stream, stops the gateway at its first byte, and returns everything the client received. */
async function streamCutByShutdown(path: string, headers: Record<string, string>, body: object) {
  const gw = await startTestGateway({
    config: testConfigFile({ providers: [{ id: 'sim', type: 'simulator', options: { chunkDelayMs: 400 } }] }),
    env: { shutdownGraceMs: 0 }, // the grace period has run out as soon as the stop begins
  });
  return new Promise<string>((resolve, reject) => {
    const req = http.request(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      let closing: Promise<void> | undefined;
      res.on('data', (d) => {
        text += d;
        closing ??= gw.stop();
      });
      res.on('end', () => closing!.then(() => resolve(text), reject));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const LONG_PROMPT = 'a long enough prompt to stream in several chunks, and then a few more words to be sure';

describe('shutdown past the grace period', () => {
  it('ends an OpenAI chat stream with an OpenAI error event', async () => {
    const text = await streamCutByShutdown(
      '/v1/chat/completions',
      { authorization: `Bearer ${ALPHA_KEY}` },
      { model: 'sim-chat', stream: true, messages: [{ role: 'user', content: LONG_PROMPT }] },
    );
    expect(text).toContain('"code":"server_shutting_down"');
    expect(text).not.toContain('"finish_reason":"stop"');
  });

  it('ends an Anthropic messages stream with an Anthropic error event', async () => {
    const text = await streamCutByShutdown(
      '/v1/messages',
      { 'x-api-key': ALPHA_KEY, 'anthropic-version': '2023-06-01' },
      { model: 'sim-chat', stream: true, max_tokens: 200, messages: [{ role: 'user', content: LONG_PROMPT }] },
    );
    expect(text).toMatch(/event: error\ndata: \{"type":"error","error":\{"type":"[a-z_]+"/);
    expect(text).toContain('shutting down');
    expect(text).not.toContain('message_stop');
  });
});
