import { MALFORMED_ANSWERS } from '@gateway/testkit';
import { googleErrorParts } from '@gateway/wire-gemini-content';
import { startProviderGateway, UPSTREAMS, type ProviderGateway } from '../support/provider-gateway';
import { BETA_KEY } from '../support/test-gateway';

/**
 * An upstream that answers 200 with a wrongly typed field (`{"choices":"x"}`, `{"content":5}`, ...) is
 * checked at the edge: the caller gets a clean 502 in its own format, never a crash inside a mapper.
 */
interface Inbound {
  name: string;
  send(url: string, model: string, stream: boolean): Promise<Response>;
  /** the error body's code and the format's own error type / status word */
  read(body: any): { code: string; kind: string };
  kind: string;
}

const json = (url: string, headers: Record<string, string>, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

const INBOUND: Inbound[] = [
  {
    name: 'openai-chat',
    send: (url, model, stream) =>
      json(
        `${url}/v1/chat/completions`,
        { authorization: `Bearer ${BETA_KEY}` },
        { model, stream, messages: [{ role: 'user', content: 'hi' }] },
      ),
    read: (b) => ({ code: b.error.code, kind: b.error.type }),
    kind: 'upstream_error',
  },
  {
    name: 'anthropic-messages',
    send: (url, model, stream) =>
      json(
        `${url}/v1/messages`,
        { 'x-api-key': BETA_KEY, 'anthropic-version': '2023-06-01' },
        { model, stream, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] },
      ),
    read: (b) => ({ code: b.error.code, kind: `${b.type}/${b.error.type}` }),
    kind: 'error/api_error',
  },
  {
    name: 'gemini-content',
    send: (url, model, stream) =>
      json(
        `${url}/v1beta/models/${model}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
        { 'x-goog-api-key': BETA_KEY },
        { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      ),
    read: (b) => ({ code: googleErrorParts(b).code, kind: b.error.status }),
    kind: 'INTERNAL',
  },
];

let pg: ProviderGateway;
beforeAll(async () => {
  pg = await startProviderGateway();
});
afterAll(async () => {
  await pg.stop();
});
beforeEach(() => Object.values(pg.fakes).forEach((f) => f.reset()));

describe.each(UPSTREAMS)('a wrongly typed answer from upstream $name', (up) => {
  const malformed = MALFORMED_ANSWERS[up.dialect];

  it.each(INBOUND)('is a clean 502 in the $name format (answers and a stream chunk)', async (inbound) => {
    const cases = [
      ...malformed.answers.map((body) => ({ stream: false, raw: { status: 200, headers: { 'content-type': 'application/json' }, body } })),
      { stream: true, raw: { status: 200, headers: { 'content-type': 'text/event-stream' }, body: malformed.chunk } },
    ];
    for (const c of cases) {
      pg.fakes[up.name]!.enqueue({ raw: c.raw });
      const res = await inbound.send(pg.gw.url, up.model, c.stream);
      const text = await res.text();
      expect({ body: c.raw.body, status: res.status }).toEqual({ body: c.raw.body, status: 502 });
      expect(inbound.read(JSON.parse(text))).toEqual({ code: 'upstream_malformed_response', kind: inbound.kind });
    }
  });
});
