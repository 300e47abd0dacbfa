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
