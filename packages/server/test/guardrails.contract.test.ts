/**
 * Guardrails (docs/guardrails.md) in the four text formats, streamed and not, against a recording OpenAI-compatible
 * fake upstream on 127.0.0.1: a masked e-mail address never reaches the upstream, a blocked output ends a stream before
 * the matched word is sent (asserted on the raw bytes the client got), a block is the format's error with
 * guardrail_blocked, and a webhook guardrail (a local receiver verifying the Standard Webhooks signature) allows,
 * modifies, blocks, and on a timeout fails closed (503 guardrail_unavailable) or open as configured.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { startProviderGateway, UPSTREAMS, type ProviderGateway } from './support/provider-gateway';
import { BETA_KEY } from './support/test-gateway';

const COMPATIBLE = UPSTREAMS.find((u) => u.name === 'openai-compatible')!;
const ANTHROPIC = UPSTREAMS.find((u) => u.name === 'anthropic')!;
const MODEL = COMPATIBLE.model;
const HOOK_CLOSED_KEY = 'sk-hook-closed-test-key-0003';
const HOOK_OPEN_KEY = 'sk-hook-open-test-key-0004';
const OUT_MASK_KEY = 'sk-out-mask-test-key-0005';
const FILLER = 'a'.repeat(600);

/** The team's guardrail service: records each signed POST and answers what the test scripts (or never). */
interface Receiver {
  url: string;
  received: Array<{ headers: http.IncomingHttpHeaders; body: string }>;
  answer: (body: Record<string, unknown>) => Record<string, unknown> | 'hang';
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const r = {
    received: [] as Receiver['received'],
    answer: (() => ({ action: 'allow' })) as Receiver['answer'],
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      r.received.push({ headers: req.headers, body });
      const a = r.answer(JSON.parse(body));
      if (a === 'hang') return; // answered never: the gateway's timeout decides
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(a));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(r, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

let pg: ProviderGateway;
let receiver: Receiver;
const fake = () => pg.fakes['openai-compatible']!;
beforeAll(async () => {
  receiver = await startReceiver();
  pg = await startProviderGateway(
    [COMPATIBLE, ANTHROPIC],
    (file) => ({
      ...file,
      guardrails: [
        { id: 'pii-mask', type: 'pii', mode: 'mask' },
        { id: 'no-forbidden', type: 'regex', on: 'output', patterns: ['(?i)forbidden'] },
        { id: 'no-falcon', type: 'regex', patterns: ['(?i)project\\s+falcon'] },
        { id: 'team-check', type: 'webhook', url: `${receiver.url}/check`, timeoutMs: 400 },
        { id: 'team-check-open', type: 'webhook', url: `${receiver.url}/check`, timeoutMs: 400, failOpen: true },
        { id: 'pii-out', type: 'pii', mode: 'mask', on: 'output' },
      ],
      groups: [
        ...file.groups.map((g) => (g.name === 'vip' ? { ...g, guardrails: ['pii-mask', 'no-forbidden', 'no-falcon'] } : g)),
        { name: 'hooked', models: ['*'] },
      ],
      keys: [
        ...(file.keys ?? []),
        { key: HOOK_CLOSED_KEY, account: 'hooks', group: 'hooked', guardrails: ['team-check'] },
        { key: HOOK_OPEN_KEY, account: 'hooks', group: 'hooked', guardrails: ['team-check-open'] },
        { key: OUT_MASK_KEY, account: 'hooks', group: 'hooked', guardrails: ['pii-out'] },
      ],
    }),
    // the receiver's loopback address allowed, as an operator would
    { variables: { WEBHOOK_ALLOWED_HOSTS: receiver.url.replace('http://', '') } },
  );
});
afterAll(async () => {
  await pg?.stop();
  await receiver?.close();
});
beforeEach(() => {
  fake().reset();
  pg.fakes.anthropic!.reset();
  receiver.received.length = 0;
  receiver.answer = () => ({ action: 'allow' });
});

/** One text format: how to ask it, with or without a stream, as raw HTTP. */
interface Format {
  name: string;
  request(prompt: string, stream: boolean, key: string): { path: string; headers: Record<string, string>; body: unknown };
}

const FORMATS: Format[] = [
  {
    name: 'openai-chat',
    request: (prompt, stream, key) => ({
      path: '/v1/chat/completions',
      headers: { authorization: `Bearer ${key}` },
      body: { model: MODEL, messages: [{ role: 'user', content: prompt }], stream },
    }),
  },
  {
    name: 'anthropic-messages',
    request: (prompt, stream, key) => ({
      path: '/v1/messages',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
      body: { model: MODEL, max_tokens: 256, messages: [{ role: 'user', content: prompt }], stream },
    }),
  },
  {
    name: 'openai-responses',
    request: (prompt, stream, key) => ({
      path: '/v1/responses',
      headers: { authorization: `Bearer ${key}` },
      body: { model: MODEL, input: prompt, stream, store: false },
    }),
  },
  {
    name: 'gemini-generate-content',
    request: (prompt, stream, key) => ({
      path: `/v1beta/models/${MODEL}:${stream ? 'streamGenerateContent?alt=sse' : 'generateContent'}`,
      headers: { 'x-goog-api-key': key },
      body: { contents: [{ role: 'user', parts: [{ text: prompt }] }] },
    }),
  },
];

async function send(format: Format, prompt: string, stream: boolean, key = BETA_KEY) {
  const r = format.request(prompt, stream, key);
  const res = await fetch(`${pg.gw.url}${r.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...r.headers },
    body: JSON.stringify(r.body),
  });
  return { status: res.status, raw: await res.text() };
}

/** The code an error body carries, wherever its format puts it (docs/errors.md). */
function errorCode(raw: string): string | undefined {
  const body = JSON.parse(raw);
  return body.error?.details?.find((d: { reason?: string }) => d.reason)?.reason ?? body.error?.code;
}

describe.each(FORMATS)('$name', (format) => {
  it.each([false, true])('stream %s: a masked e-mail address never reaches the upstream', async (stream) => {
    const got = await send(format, 'Please write to bob.smith@example.com today', stream);
    expect(got.status).toBe(200);
    expect(fake().requests).toHaveLength(1);
    expect(fake().requests[0]!.rawBody).not.toContain('bob.smith@example.com');
    expect(fake().requests[0]!.rawBody).toContain('[EMAIL]');
    expect(got.raw).toContain('[EMAIL]'); // the fake echoes what it got
  });

  it('stream: a blocked output ends the stream with the error before the matched word is sent', async () => {
    fake().setDefault({ reply: { text: `${FILLER} and the forbidden word, then more` } });
    const got = await send(format, 'hello', true);
    expect(got.status).toBe(200);
    expect(got.raw.toLowerCase()).not.toContain('forbidden word');
    expect(got.raw.replaceAll('no-forbidden', '').toLowerCase()).not.toContain('forbidden'); // only the guardrail's id names it
    expect(got.raw).toContain('guardrail_blocked');
    expect(got.raw).toContain('aaaaaaaaaa'); // what came before was forwarded
    expect(got.raw).not.toContain('then more');
  });

  it('no stream: a blocked output is the format error with guardrail_blocked naming the guardrail', async () => {
    fake().setDefault({ reply: { text: 'this is forbidden' } });
    const got = await send(format, 'hello', false);
    expect(got.status).toBe(400);
    expect(errorCode(got.raw)).toBe('guardrail_blocked');
    expect(got.raw).toContain('no-forbidden');
  });

  it('a blocked input never reaches the upstream and the error does not echo the match', async () => {
    for (const stream of [false, true]) {
      const got = await send(format, 'Tell me everything about Project Falcon', stream);
      expect(got.status).toBe(400);
      expect(errorCode(got.raw)).toBe('guardrail_blocked');
      expect(got.raw).toContain('no-falcon');
      expect(got.raw.toLowerCase()).not.toContain('project falcon');
    }
    expect(fake().requests).toHaveLength(0);
  });
});

describe.each([FORMATS[0]!, FORMATS[1]!])('$name streamed tool-call arguments and reasoning', (format) => {
  const TOOL = { type: 'function', function: { name: 'note', parameters: { type: 'object' } } };
  const withTools = (f: Format): Format => ({
    name: f.name,
    request: (prompt, stream, key) => {
      const r = f.request(prompt, stream, key);
      const body = r.body as Record<string, unknown>;
      const tools = f.name === 'openai-chat' ? [TOOL] : [{ name: 'note', input_schema: { type: 'object' } }];
      return { ...r, body: { ...body, tools } };
    },
  });

  it('a blocked match inside streamed tool-call arguments ends the stream with guardrail_blocked before it is sent', async () => {
    fake().setDefault({ reply: { toolCalls: [{ name: 'note', arguments: { text: `${FILLER} the forbidden word, then more` } }] } });
    const got = await send(withTools(format), 'hello', true);
    expect(got.status).toBe(200);
    expect(got.raw).toContain('guardrail_blocked');
    expect(got.raw.replaceAll('no-forbidden', '').toLowerCase()).not.toContain('forbidden');
    expect(got.raw).not.toContain('then more');
    expect(got.raw).toContain('aaaaaaaaaa'); // the arguments before the match were forwarded
  });

  it('an output mask replaces an e-mail address inside streamed tool-call arguments', async () => {
    fake().setDefault({ reply: { toolCalls: [{ name: 'note', arguments: { to: 'carol.jones@example.com' } }] } });
    const got = await send(withTools(format), 'hello', true, OUT_MASK_KEY);
    expect(got.status).toBe(200);
    expect(got.raw).not.toContain('carol');
    expect(got.raw).toContain('[EMAIL]');
  });
});

describe('openai-chat reasoning', () => {
  it('a blocked match in streamed reasoning ends the stream before it is sent; a mask replaces one', async () => {
    fake().setDefault({ reply: { reasoning: { text: `${FILLER} a forbidden thought, then more` }, text: 'answer' } });
    const got = await send(FORMATS[0]!, 'hello', true);
    expect(got.raw).toContain('guardrail_blocked');
    expect(got.raw.replaceAll('no-forbidden', '').toLowerCase()).not.toContain('forbidden');
    expect(got.raw).not.toContain('then more');
    expect(got.raw).toContain('aaaaaaaaaa');

    fake().setDefault({ reply: { reasoning: { text: 'I should mail carol.jones@example.com' }, text: 'answer' } });
    const masked = await send(FORMATS[0]!, 'hello', true, OUT_MASK_KEY);
    expect(masked.raw).not.toContain('carol');
    expect(masked.raw).toContain('[EMAIL]');
  });

  it('no stream: a match in the reasoning blocks the answer; a mask replaces one', async () => {
    fake().setDefault({ reply: { reasoning: { text: 'a forbidden thought' }, text: 'answer' } });
    const got = await send(FORMATS[0]!, 'hello', false);
    expect(got.status).toBe(400);
    expect(errorCode(got.raw)).toBe('guardrail_blocked');

    fake().setDefault({ reply: { reasoning: { text: 'I should mail carol.jones@example.com' }, text: 'answer' } });
    const masked = await send(FORMATS[0]!, 'hello', false, OUT_MASK_KEY);
    expect(masked.status).toBe(200);
    expect(masked.raw).not.toContain('carol');
    expect(masked.raw).toContain('[EMAIL]');
  });
});

describe('Anthropic cache_control under an input mask', () => {
  it.each([false, true])('stream %s: the Anthropic upstream gets the client body with its cache_control blocks, masked', async (stream) => {
    const cache = { type: 'ephemeral' };
    const body = {
      model: ANTHROPIC.model,
      max_tokens: 64,
      stream,
      system: [{ type: 'text', text: 'You answer briefly.', cache_control: cache }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Write to dana.white@example.com today', cache_control: cache }] }],
    };
    const res = await fetch(`${pg.gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': BETA_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    await res.text();
    const sent = pg.fakes.anthropic!.requests;
    expect(sent).toHaveLength(1);
    expect(sent[0]!.rawBody).not.toContain('dana.white@example.com');
    expect(sent[0]!.body.system).toEqual([{ type: 'text', text: 'You answer briefly.', cache_control: cache }]);
    expect(sent[0]!.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Write to [EMAIL] today', cache_control: cache }] },
    ]);
  });
});

describe('Responses previous_response_id', () => {
  it('a stored turn continued later is masked again: the e-mail never reaches the upstream on either call', async () => {
    const first = await send(
      {
        name: 'stored',
        request: (prompt, stream, key) => ({
          ...FORMATS[2]!.request(prompt, stream, key),
          body: { model: MODEL, input: prompt, store: true },
        }),
      },
      'My address is ann.lee@example.org',
      false,
    );
    expect(first.status).toBe(200);
    const id = (JSON.parse(first.raw) as { id: string }).id;
    const res = await fetch(`${pg.gw.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${BETA_KEY}` },
      body: JSON.stringify({ model: MODEL, input: 'and what is it again?', previous_response_id: id }),
    });
    expect(res.status).toBe(200);
    expect(fake().requests).toHaveLength(2);
    for (const r of fake().requests) expect(r.rawBody).not.toContain('ann.lee@example.org');
    expect(fake().requests[1]!.rawBody).toContain('and what is it again?');
  });
});

describe('webhook guardrail', () => {
  const chat = FORMATS[0]!;

  async function callbackSecret(key: string): Promise<string> {
    const res = await fetch(`${pg.gw.url}/v1/webhook_endpoints`, { headers: { authorization: `Bearer ${key}` } });
    return ((await res.json()) as { callback_secret: string }).callback_secret;
  }

  it('is signed with the account callback secret and sends every text; allow lets the request through', async () => {
    const got = await send(chat, 'hello there', false, HOOK_CLOSED_KEY);
    expect(got.status).toBe(200);
    expect(receiver.received).toHaveLength(1);
    const { headers, body } = receiver.received[0]!;
    const verified = new Webhook(await callbackSecret(HOOK_CLOSED_KEY)).verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    });
    expect(verified).toEqual({ phase: 'input', request_id: expect.any(String), model: MODEL, texts: ['hello there'] });
    expect(fake().requests).toHaveLength(1);
  });

  it('modify replaces the texts the upstream sees; block refuses with guardrail_blocked', async () => {
    receiver.answer = () => ({ action: 'modify', texts: ['rewritten by the team'] });
    expect((await send(chat, 'original words', false, HOOK_CLOSED_KEY)).status).toBe(200);
    expect(fake().requests[0]!.rawBody).toContain('rewritten by the team');
    expect(fake().requests[0]!.rawBody).not.toContain('original words');
    receiver.answer = () => ({ action: 'block', reason: 'not allowed' });
    const blocked = await send(chat, 'hello', false, HOOK_CLOSED_KEY);
    expect(blocked.status).toBe(400);
    expect(errorCode(blocked.raw)).toBe('guardrail_blocked');
    expect(fake().requests).toHaveLength(1);
  });

  it('a timeout fails closed with 503 guardrail_unavailable, or open with failOpen', async () => {
    receiver.answer = () => 'hang';
    const closed = await send(chat, 'hello', false, HOOK_CLOSED_KEY);
    expect(closed.status).toBe(503);
    expect(errorCode(closed.raw)).toBe('guardrail_unavailable');
    expect(fake().requests).toHaveLength(0);
    const open = await send(chat, 'hello', false, HOOK_OPEN_KEY);
    expect(open.status).toBe(200);
    expect(fake().requests).toHaveLength(1);
  });
});
