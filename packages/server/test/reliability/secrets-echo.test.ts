/**
 * Upstream credentials never leave through the gateway, whatever field an upstream copies them into.
 * One hostile upstream (support/echo-upstream.ts) answers as OpenAI, Anthropic and Gemini and quotes the
 * key it received (whole, truncated, upper-cased, base64, URL-encoded) in ids, model names, request-id
 * headers, error bodies and in-stream error events. Every provider adapter (openai, anthropic, google,
 * openai-compatible; the openai one over chat completions, or over the Responses API for /v1/responses clients)
 * × every inbound text format × streaming or not × every failure: no fragment of any
 * key in an answer, a stored row or a log line, and the generated text arrives unchanged.
 */
import type { ProviderConfig } from '../../src/config';
import { startCapturingGateway, type CapturingGateway } from './support/capturing-gateway';
import { ECHO_CONTENT, ECHO_MODES, startEchoUpstream, type EchoUpstream } from './support/echo-upstream';
import { send, TEXT_FORMATS, textCall, type Answer } from './support/text-clients';

jest.setTimeout(120_000);

const CLIENT_KEY = 'sk-client-echo-0001';
/** random-looking, as real keys are, one per adapter */
const KEYS: Record<string, string> = {
  openai: 'sk-proj-Qm7TzX2vLw9RkB4nHc8J',
  anthropic: 'sk-ant-api03-Vd3Fq8Ls1Np6Gx0W',
  google: 'AIzaSyC4mQ9r2Tx7Lk0vZb5NhW3j',
  'openai-compatible': 'ock-9Hs2Qw7Ea4Rt1Yu6Io3P',
};
const ADAPTERS = Object.keys(KEYS) as Array<NonNullable<ProviderConfig['type']>>;
/** every 8-character window of a key: any of them in the output is a leak */
const fragments = (k: string) => Array.from({ length: k.length - 7 }, (_, i) => k.slice(i, i + 8).toLowerCase());
const FRAGMENTS = Object.values(KEYS).flatMap(fragments);
const leaks = (text: string) => FRAGMENTS.filter((f) => text.toLowerCase().includes(f));

let echo: EchoUpstream;
let gw: CapturingGateway;
const answers: Array<Answer & { label: string }> = [];

beforeAll(async () => {
  echo = await startEchoUpstream();
  const providers = ADAPTERS.map((type) => ({ id: type, type, baseUrl: `${echo.url}/v1`, apiKey: KEYS[type] }));
  const models = ADAPTERS.flatMap((type) =>
    ECHO_MODES.map((mode) => ({ id: `${type}-${mode}`, kind: 'text' as const, provider: type, upstreamModel: mode })),
  );
  gw = await startCapturingGateway({
    providers,
    models,
    groups: [{ name: 'all', models: ['*'] }],
    keys: [{ key: CLIENT_KEY, account: 'alpha', group: 'all' }],
  });
});

afterAll(async () => {
  await gw?.stop();
  await echo?.close();
});

describe('an upstream that echoes its credential everywhere', () => {
  it.each(ADAPTERS)('%s adapter: no fragment of a key in any answer, in any inbound format, streaming or not', async (type) => {
    for (const format of TEXT_FORMATS) {
      for (const stream of [false, true]) {
        for (const mode of ECHO_MODES) {
          const a = await send(gw.url, textCall(format, CLIENT_KEY, `${type}-${mode}`, stream), 8000);
          const label = `${type} ${format} ${stream ? 'stream' : 'json'} ${mode}`;
          answers.push({ ...a, label });
          expect({ label, leaks: leaks(a.text + JSON.stringify([...a.headers])) }).toEqual({ label, leaks: [] });
          // generated text passes unchanged; failures are failures (an HTTP error, or the stream's own error event)
          if (mode === 'ok' || (mode === 'stream-error' && !stream))
            expect({ label, status: a.status, content: a.text.includes(ECHO_CONTENT) }).toEqual({ label, status: 200, content: true });
          else if (mode === 'stream-error')
            expect({ label, content: a.text.includes(ECHO_CONTENT), error: /error|failed/.test(a.text) }).toEqual({
              label,
              content: true,
              error: true,
            });
          else expect({ label, error: a.status >= 400 }).toEqual({ label, error: true });
        }
      }
    }
    // the upstream really got this adapter's key, so there was something to leak
    expect(echo.seen.has(KEYS[type]!)).toBe(true);
  });

  it('the upstream message still helps (redacted, not dropped), and nothing stored or logged holds a fragment', async () => {
    expect(answers.length).toBe(ADAPTERS.length * TEXT_FORMATS.length * 2 * ECHO_MODES.length);
    expect(answers.some((a) => a.text.includes('rejected credential [redacted]'))).toBe(true);
    expect(leaks(await gw.storedText())).toEqual([]);
    const log = gw.log();
    expect(log.match(/"requestId"/g)?.length ?? 0).toBeGreaterThan(answers.length / 2);
    expect(leaks(log)).toEqual([]);
  });
});
