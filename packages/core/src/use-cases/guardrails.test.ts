import type { Principal } from '../auth';
import { ModelCatalogue, type ModelSpec } from '../catalogue';
import type { EmbeddingRequest } from '../embedding';
import type { EmbeddingModelPort } from '../ports/embedding-model.port';
import { GatewayError } from '../errors';
import { GuardrailSet, type GuardrailSpec } from '../guardrails/guardrail';
import type { TextModelPort } from '../ports/text-model.port';
import type { UsageRow } from '../ports/usage-log.port';
import type { WebhookSender } from '../ports/webhook-sender.port';
import { collectStream, type TextRequest, type TextStreamPart } from '../text';
import { signWebhook } from '../webhooks/webhook-signing';
import { Guardrails, type GuardrailDeps } from './guardrails';
import { requestTexts, withRequestTexts } from './guardrails-text';
import { TextGeneration } from './text-generation';
import { Embeddings } from './embeddings';
import { VideoTasks } from './video-tasks';
import {
  ALPHA,
  fakeVideoCatalogue,
  FakeVideoModel,
  InMemoryContentStore,
  InMemoryTaskRepository,
  ManualClock,
  MemoryUsageLog,
} from '@gateway/testkit';

const principal: Principal = { accountId: 'acct', keyId: 'key', group: 'g' };
const SECRET = 'whsec_' + Buffer.alloc(32, 7).toString('base64');

const user = (text: string): TextRequest['messages'][number] => ({ role: 'user', content: [{ type: 'text', text }] });

/** A text port that records what reached it and answers (or streams) the given parts; a string is a text delta. */
function recordingPort(chunks: Array<string | TextStreamPart>) {
  const seen: TextRequest[] = [];
  async function* parts(): AsyncGenerator<TextStreamPart> {
    for (const c of chunks) yield typeof c === 'string' ? { type: 'text-delta', delta: c } : c;
    yield { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } };
  }
  const port: TextModelPort = {
    async generate(req) {
      seen.push(req);
      return collectStream(req.model, parts());
    },
    async *stream(req) {
      seen.push(req);
      yield* parts();
    },
  };
  return { port, seen };
}

function setup(
  specs: GuardrailSpec[],
  chunks: Array<string | TextStreamPart>,
  extra: Partial<GuardrailDeps> = {},
  keyGuardrails?: string[],
) {
  const set = new GuardrailSet(specs, [{ name: 'g', guardrails: specs.filter((s) => !keyGuardrails?.includes(s.id)).map((s) => s.id) }]);
  const { port, seen } = recordingPort(chunks);
  const rows: UsageRow[] = [];
  const hits: unknown[] = [];
  const guardrails = new Guardrails({ guardrails: set, observer: { hit: (h) => hits.push(h) }, ...extra });
  const text = new TextGeneration({
    catalogue: new ModelCatalogue(
      [{ id: 'm', kind: 'text', deployments: [{ provider: 'p', upstreamModel: 'up', priority: 0, weight: 1 }] }],
      [{ name: 'g', models: ['*'] }],
    ),
    usage: { record: (r) => rows.push(r), flush: async () => {} },
    providers: { text: () => port },
    guardrails,
  });
  const who: Principal = keyGuardrails ? { ...principal, guardrails: keyGuardrails } : principal;
  const meta = () => ({ format: 'test', requestId: 'req_1', signal: new AbortController().signal });
  return {
    seen,
    rows,
    hits,
    generate: (req: TextRequest) => text.generate(who, req, meta()),
    stream: (req: TextRequest) => text.stream(who, req, meta()),
  };
}

/** What a client got of a stream before it ended, and the error that ended it. */
async function drain(parts: AsyncIterable<TextStreamPart>): Promise<{ text: string; error?: GatewayError }> {
  let text = '';
  try {
    for await (const p of parts) if (p.type === 'text-delta') text += p.delta;
  } catch (e) {
    return { text, error: e as GatewayError };
  }
  return { text };
}

const request = (text: string, extra: Partial<TextRequest> = {}): TextRequest => ({ model: 'm', messages: [user(text)], ...extra });

describe('input guardrails on a text call', () => {
  it('masks an e-mail address before the upstream sees it, drops a native body it cannot rewrite and records the hit', async () => {
    const t = setup([{ id: 'pii', type: 'pii', mode: 'mask' }], ['ok']);
    const native = { dialect: 'openai-chat', body: { messages: [{ role: 'user', content: 'mail bob@example.com' }] }, headers: {} };
    await t.generate(request('mail bob@example.com please', { native } as Partial<TextRequest>));
    expect(JSON.stringify(t.seen[0])).not.toContain('bob@example.com');
    expect(t.seen[0]!.messages[0]).toEqual(user('mail [EMAIL] please'));
    expect(t.seen[0]!.native).toBeUndefined();
    expect(t.rows[0]!.guardrails).toEqual([{ guardrail: 'pii', mode: 'mask', phase: 'input', action: 'masked' }]);
    expect(t.hits).toHaveLength(1);
  });

  it('rewrites the masked texts inside the native body, which keeps everything else (cache_control)', async () => {
    const t = setup([{ id: 'pii', type: 'pii', mode: 'mask', on: 'both' }], ['ok']);
    const cache = { type: 'ephemeral' };
    const body = {
      system: [{ type: 'text', text: 'be brief', cache_control: cache }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'mail bob@example.com', cache_control: cache }] }],
    };
    const native = { dialect: 'anthropic-messages', body };
    await t.generate(request('mail bob@example.com', { system: 'be brief', native }));
    expect(t.seen[0]!.native).toEqual({
      dialect: 'anthropic-messages',
      body: { ...body, messages: [{ role: 'user', content: [{ type: 'text', text: 'mail [EMAIL]', cache_control: cache }] }] },
    });
    expect(t.seen[0]!.messages[0]).toEqual(user('mail [EMAIL]'));
    expect(native.body.messages[0]!.content[0]!.text).toBe('mail bob@example.com'); // the client's body is not mutated
  });

  it('drops the native body when a changed text is not a whole string of it (tool-call arguments)', async () => {
    const t = setup([{ id: 'pii', type: 'pii', mode: 'mask' }], ['ok']);
    const body = {
      messages: [{ role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: { to: 'bob@example.com' } }] }],
    };
    const messages: TextRequest['messages'] = [
      { role: 'assistant', content: [{ type: 'tool-call', id: 't', name: 'f', arguments: '{"to":"bob@example.com"}' }] },
    ];
    await t.generate({ model: 'm', messages, native: { dialect: 'anthropic-messages', body } });
    expect(t.seen[0]!.native).toBeUndefined();
    expect(JSON.stringify(t.seen[0])).not.toContain('bob@example.com');
  });

  it("under output guardrails the native request goes upstream, but the upstream's own stream events are not relayed", async () => {
    const event: TextStreamPart = {
      type: 'native-event',
      dialect: 'openai-responses',
      event: 'response.output_text.delta',
      data: { delta: 'forbidden' },
    };
    const t = setup([{ id: 'words', type: 'regex', on: 'output', patterns: ['forbidden'] }], [event, 'fine']);
    const native = { dialect: 'openai-responses', body: { input: 'hi' } };
    const parts: TextStreamPart[] = [];
    for await (const p of t.stream(request('hi', { native }))) parts.push(p);
    expect(t.seen[0]!.native).toEqual(native);
    expect(parts.map((p) => p.type)).toEqual(['text-delta', 'finish']);
  });

  it('blocks with guardrail_blocked naming the guardrail, never the matched text, and nothing reaches the upstream', async () => {
    const t = setup([{ id: 'no-secrets', type: 'regex', patterns: ['(?i)project\\s+falcon'] }], ['ok']);
    const e = await t.generate(request('tell me about Project Falcon')).catch((x: GatewayError) => x);
    expect(e).toBeInstanceOf(GatewayError);
    expect((e as GatewayError).code).toBe('guardrail_blocked');
    expect((e as GatewayError).status).toBe(400);
    expect((e as GatewayError).message).toContain('no-secrets');
    expect((e as GatewayError).message).not.toMatch(/falcon/i);
    expect(t.seen).toHaveLength(0);
    expect(t.rows).toEqual([
      expect.objectContaining({
        status: 'error',
        httpStatus: 400,
        errorCode: 'guardrail_blocked',
        guardrails: [expect.objectContaining({ action: 'blocked' })],
      }),
    ]);
  });

  it('scans the system prompt, tool definitions, tool-call arguments and tool results', async () => {
    const req: TextRequest = {
      model: 'm',
      system: 'sys a@b.co',
      messages: [
        user('hi'),
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: '{"to":"c@d.co"}' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'sent to e@f.co' }] }] },
      ],
      tools: [{ name: 'f', description: 'mail g@h.co', parameters: { type: 'object', description: 'x i@j.co' } }],
    };
    expect(requestTexts(req)).toEqual(['sys a@b.co', 'hi', '{"to":"c@d.co"}', 'sent to e@f.co', 'f', 'mail g@h.co', 'object', 'x i@j.co']);
    const t = setup([{ id: 'pii', type: 'pii', mode: 'mask', entities: ['email'] }], ['ok']);
    await t.generate(req);
    const sent = JSON.stringify(t.seen[0]);
    for (const address of ['a@b.co', 'c@d.co', 'e@f.co', 'g@h.co', 'i@j.co']) expect(sent).not.toContain(address);
    expect(t.seen[0]!.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: '{"to":"[EMAIL]"}' }],
    });
    expect(withRequestTexts(req, requestTexts(req))).toEqual(req);
  });

  it('max_input refuses over maxChars or maxTokens, counting every text', async () => {
    const t = setup([{ id: 'size', type: 'max_input', maxChars: 10 }], ['ok']);
    await expect(t.generate(request('12345', { system: '123456' }))).rejects.toMatchObject({ code: 'guardrail_blocked' });
    await expect(t.generate(request('12345', { system: '12345' }))).resolves.toBeDefined();
    const tokens = setup([{ id: 'size', type: 'max_input', maxTokens: 2 }], ['ok']);
    await expect(tokens.generate(request('123456789'))).rejects.toMatchObject({ code: 'guardrail_blocked' });
  });

  it('log mode only records; a key adds its own guardrails to its group', async () => {
    const t = setup(
      [
        { id: 'watch', type: 'regex', mode: 'log', patterns: ['falcon'] },
        { id: 'mine', type: 'pii', mode: 'mask' },
      ],
      ['ok'],
      {},
      ['mine'],
    );
    await t.generate(request('falcon a@b.co'));
    expect(t.seen[0]!.messages[0]).toEqual(user('falcon [EMAIL]'));
    expect(t.rows[0]!.guardrails?.map((h) => [h.guardrail, h.action])).toEqual([
      ['watch', 'logged'],
      ['mine', 'masked'],
    ]);
  });
});

describe('output guardrails', () => {
  it('masks a non-streamed answer', async () => {
    const t = setup([{ id: 'pii', type: 'pii', mode: 'mask', on: 'output' }], ['write to bob@example.com']);
    const r = await t.generate(request('hi'));
    expect(r.content).toEqual([{ type: 'text', text: 'write to [EMAIL]' }]);
  });

  it("a non-streamed answer's usage row carries its output hits, blocked or masked", async () => {
    const masked = setup([{ id: 'pii', type: 'pii', mode: 'mask', on: 'output' }], ['write to bob@example.com']);
    await masked.generate(request('hi'));
    await new Promise((resolve) => setImmediate(resolve)); // the row is written once the output check settles
    expect(masked.rows).toHaveLength(1);
    expect(masked.rows[0]!.guardrails).toEqual([{ guardrail: 'pii', mode: 'mask', phase: 'output', action: 'masked' }]);

    const blocked = setup([{ id: 'words', type: 'regex', on: 'output', patterns: ['forbidden'] }], ['a forbidden word']);
    await expect(blocked.generate(request('hi'))).rejects.toMatchObject({ code: 'guardrail_blocked' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(blocked.rows).toHaveLength(1);
    expect(blocked.rows[0]!.guardrails).toEqual([{ guardrail: 'words', mode: 'block', phase: 'output', action: 'blocked' }]);
  });

  it('ends a stream before the matched word when it spans chunks, holding back at most 256 characters', async () => {
    const filler = 'x'.repeat(600);
    const t = setup([{ id: 'words', type: 'regex', on: 'output', patterns: ['forbidden'] }], [filler, ' forb', 'idden tail']);
    const got = await drain(t.stream(request('hi')));
    expect(got.error?.code).toBe('guardrail_blocked');
    expect(got.text).toBe(filler + ' ');
    expect(t.rows[0]!.guardrails).toEqual([{ guardrail: 'words', mode: 'block', phase: 'output', action: 'blocked' }]);
  });

  it('releases text as it streams (at most 256 characters held back)', async () => {
    const t = setup([{ id: 'words', type: 'regex', on: 'output', patterns: ['forbidden'] }], ['a'.repeat(300), 'b'.repeat(300)]);
    const seen: string[] = [];
    for await (const p of t.stream(request('hi'))) if (p.type === 'text-delta') seen.push(p.delta);
    expect(seen[0]!.length).toBeGreaterThanOrEqual(300 - 256);
    expect(seen.join('')).toBe('a'.repeat(300) + 'b'.repeat(300));
  });

  it('masks every match of a stream, across chunks', async () => {
    const t = setup([{ id: 'pii', type: 'pii', mode: 'mask', on: 'both' }], ['mail bob@exa', 'mple.com and ann@example.org', ' now']);
    const r = await collectStream('m', t.stream(request('hi')));
    expect(r.content).toEqual([{ type: 'text', text: 'mail [EMAIL] and [EMAIL] now' }]);
  });
});

const call = (index: number, name = 'lookup'): TextStreamPart => ({ type: 'tool-call-start', index, id: `call_${index}`, name });
const args = (index: number, argumentsDelta: string): TextStreamPart => ({ type: 'tool-call-delta', index, argumentsDelta });
const thought = (delta: string, signature?: string): TextStreamPart => ({
  type: 'reasoning-delta',
  delta,
  ...(signature ? { signature } : {}),
});

describe('output guardrails on tool-call arguments and reasoning', () => {
  const words: GuardrailSpec = { id: 'words', type: 'regex', on: 'output', patterns: ['forbidden'] };
  const mask: GuardrailSpec = { id: 'pii', type: 'pii', mode: 'mask', on: 'output' };

  it('ends a stream before a match inside streamed tool-call arguments, which is never forwarded', async () => {
    const t = setup([words], ['calling', call(0), args(0, '{"q":"forb'), args(0, 'idden"}')]);
    const forwarded: TextStreamPart[] = [];
    let error: GatewayError | undefined;
    try {
      for await (const p of t.stream(request('hi'))) forwarded.push(p);
    } catch (e) {
      error = e as GatewayError;
    }
    expect(error?.code).toBe('guardrail_blocked');
    expect(forwarded.map((p) => p.type)).toEqual(['text-delta', 'tool-call-start', 'tool-call-delta']);
    expect(forwarded.flatMap((p) => (p.type === 'tool-call-delta' ? [p.argumentsDelta] : []))).toEqual(['{"q":"']);
    expect(t.rows[0]!.guardrails).toEqual([{ guardrail: 'words', mode: 'block', phase: 'output', action: 'blocked' }]);
  });

  it('ends a stream before a match in streamed reasoning', async () => {
    const t = setup([words], [thought('a forb'), thought('idden thought'), 'answer']);
    const forwarded: string[] = [];
    await expect(
      (async () => {
        for await (const p of t.stream(request('hi'))) if (p.type === 'reasoning-delta' || p.type === 'text-delta') forwarded.push(p.delta);
      })(),
    ).rejects.toMatchObject({ code: 'guardrail_blocked' });
    expect(forwarded.join('')).toBe('a ');
  });

  it("masks streamed reasoning (its signature kept) and each tool call's arguments across chunks, parts in order", async () => {
    const t = setup(
      [mask],
      [
        thought('mail bob@exa'),
        thought('mple.com', 'sig'),
        'I will write to ann@',
        'example.org',
        call(0, 'send'),
        args(0, '{"to":"bob@ex'),
        args(0, 'ample.com"}'),
        call(1, 'cc'),
        args(1, '{"to":"ann@example.org"}'),
      ],
    );
    const r = await collectStream('m', t.stream(request('hi')));
    expect(r.content).toEqual([
      { type: 'reasoning', text: 'mail [EMAIL]', signature: 'sig' },
      { type: 'text', text: 'I will write to [EMAIL]' },
      { type: 'tool-call', id: 'call_0', name: 'send', arguments: '{"to":"[EMAIL]"}' },
      { type: 'tool-call', id: 'call_1', name: 'cc', arguments: '{"to":"[EMAIL]"}' },
    ]);
    expect(t.hits).toEqual([{ guardrail: 'pii', mode: 'mask', phase: 'output', action: 'masked' }]);
  });

  it("masks or blocks a non-streamed answer's reasoning and tool-call arguments", async () => {
    const masked = setup([mask], [thought('think of bob@example.com', 'sig'), call(0), args(0, '{"to":"ann@example.org"}')]);
    expect((await masked.generate(request('hi'))).content).toEqual([
      { type: 'reasoning', text: 'think of [EMAIL]', signature: 'sig' },
      { type: 'tool-call', id: 'call_0', name: 'lookup', arguments: '{"to":"[EMAIL]"}' },
    ]);
    await expect(setup([words], [thought('forbidden')]).generate(request('hi'))).rejects.toMatchObject({ code: 'guardrail_blocked' });
    await expect(setup([words], [call(0), args(0, '"forbidden"')]).generate(request('hi'))).rejects.toMatchObject({
      code: 'guardrail_blocked',
    });
  });
});

/** A webhook sender that verifies the signature and answers with a script. */
function webhookSender(answer: (body: { phase: string; texts: string[] }) => { status: number; body: unknown } | 'timeout') {
  const calls: Array<{ url: string; body: { phase: string; request_id: string; model: string; texts: string[] } }> = [];
  const sender: WebhookSender = {
    async post(url, req) {
      const expected = signWebhook(SECRET, req.headers['webhook-id']!, Number(req.headers['webhook-timestamp']), req.body);
      if (req.headers['webhook-signature'] !== expected['webhook-signature']) throw new Error('bad signature');
      const body = JSON.parse(req.body);
      calls.push({ url, body });
      const a = answer(body);
      if (a === 'timeout') return { error: `no answer within ${req.timeoutMs} ms` };
      return { status: a.status, excerpt: JSON.stringify(a.body) };
    },
  };
  return { calls, webhooks: { sender, callbackSecret: async () => SECRET } };
}

describe('webhook guardrails', () => {
  const hook = (extra: Partial<Extract<GuardrailSpec, { type: 'webhook' }>> = {}): GuardrailSpec => ({
    id: 'team',
    type: 'webhook',
    url: 'https://guard.example/check',
    ...extra,
  });

  it('sends the texts signed, and allows', async () => {
    const w = webhookSender(() => ({ status: 200, body: { action: 'allow' } }));
    const t = setup([hook()], ['ok'], { webhooks: w.webhooks });
    await t.generate(request('hello', { system: 'be brief' }));
    expect(w.calls).toEqual([
      { url: 'https://guard.example/check', body: { phase: 'input', request_id: 'req_1', model: 'm', texts: ['be brief', 'hello'] } },
    ]);
    expect(t.seen).toHaveLength(1);
  });

  it('modify replaces the texts by position; block refuses', async () => {
    const w = webhookSender((b) => ({ status: 200, body: { action: 'modify', texts: b.texts.map((x) => x.toUpperCase()) } }));
    const t = setup([hook()], ['ok'], { webhooks: w.webhooks });
    await t.generate(request('hello'));
    expect(t.seen[0]!.messages[0]).toEqual(user('HELLO'));
    const b = webhookSender(() => ({ status: 200, body: { action: 'block', reason: 'no' } }));
    const blocked = setup([hook()], ['ok'], { webhooks: b.webhooks });
    await expect(blocked.generate(request('hello'))).rejects.toMatchObject({ code: 'guardrail_blocked', status: 400 });
    expect(blocked.seen).toHaveLength(0);
  });

  it('a timeout fails closed (503 guardrail_unavailable), or open with failOpen, recorded', async () => {
    const w = webhookSender(() => 'timeout');
    const closed = setup([hook()], ['ok'], { webhooks: w.webhooks });
    await expect(closed.generate(request('hello'))).rejects.toMatchObject({ code: 'guardrail_unavailable', status: 503 });
    expect(closed.seen).toHaveLength(0);
    const open = setup([hook({ failOpen: true })], ['ok'], { webhooks: w.webhooks });
    await open.generate(request('hello'));
    expect(open.seen).toHaveLength(1);
    expect(open.rows[0]!.guardrails).toEqual([{ guardrail: 'team', mode: 'block', phase: 'input', action: 'failed_open' }]);
  });

  it('a malformed answer or a non-2xx status counts as a failure; log mode only records the answer', async () => {
    const bad = webhookSender(() => ({ status: 200, body: { action: 'modify', texts: ['one', 'two'] } }));
    await expect(setup([hook()], ['ok'], { webhooks: bad.webhooks }).generate(request('x'))).rejects.toMatchObject({
      code: 'guardrail_unavailable',
    });
    const down = webhookSender(() => ({ status: 500, body: {} }));
    await expect(setup([hook()], ['ok'], { webhooks: down.webhooks }).generate(request('x'))).rejects.toMatchObject({
      code: 'guardrail_unavailable',
    });
    const block = webhookSender(() => ({ status: 200, body: { action: 'block' } }));
    const logged = setup([hook({ mode: 'log' })], ['ok'], { webhooks: block.webhooks });
    await logged.generate(request('x'));
    expect(logged.rows[0]!.guardrails).toEqual([{ guardrail: 'team', mode: 'log', phase: 'input', action: 'logged' }]);
  });

  it('on output of a stream, checks the whole answer at its end', async () => {
    const w = webhookSender((b) =>
      b.phase === 'output' ? { status: 200, body: { action: 'modify', texts: ['[hidden]'] } } : { status: 200, body: { action: 'allow' } },
    );
    const t = setup([hook({ on: 'both' })], ['sec', 'ret'], { webhooks: w.webhooks });
    const r = await collectStream('m', t.stream(request('x')));
    expect(r.content).toEqual([{ type: 'text', text: '[hidden]' }]);
    expect(w.calls.map((c) => [c.body.phase, c.body.texts])).toEqual([
      ['input', ['x']],
      ['output', ['secret']],
    ]);
  });

  it('on output of a stream, sees each run whole (text and tool-call arguments) and sends the parts in order', async () => {
    const w = webhookSender((b) =>
      b.phase === 'output'
        ? { status: 200, body: { action: 'modify', texts: b.texts.map((x) => x.toUpperCase()) } }
        : { status: 200, body: { action: 'allow' } },
    );
    const t = setup([hook({ on: 'both' })], ['ca', 'll', call(0), args(0, '{"a":'), args(0, '"b"}')], { webhooks: w.webhooks });
    const r = await collectStream('m', t.stream(request('x')));
    expect(w.calls[1]!.body.texts).toEqual(['call', '{"a":"b"}']);
    expect(r.content).toEqual([
      { type: 'text', text: 'CALL' },
      { type: 'tool-call', id: 'call_0', name: 'lookup', arguments: '{"A":"B"}' },
    ]);
  });
});

describe('moderation guardrails', () => {
  it('blocks a flagged input through the gateway moderation model; a failing moderation fails closed', async () => {
    const moderator = {
      resolve: (_p: Principal, id: string) => id,
      moderate: async (_p: Principal, _m: string, items: Array<Array<{ type: string; text?: string }>>) =>
        items.map((i) => ({ flagged: i[0]!.text!.includes('bad'), categories: {}, scores: {}, appliedInputTypes: {} })),
    };
    const t = setup([{ id: 'mod', type: 'moderation' }], ['ok'], { moderator, defaultModerationModel: () => 'omni' });
    await expect(t.generate(request('bad words'))).rejects.toMatchObject({ code: 'guardrail_blocked' });
    await expect(t.generate(request('fine'))).resolves.toBeDefined();
    const failing = setup([{ id: 'mod', type: 'moderation' }], ['ok'], {
      moderator: { ...moderator, moderate: () => Promise.reject(new Error('down')) },
      defaultModerationModel: () => 'omni',
    });
    await expect(failing.generate(request('fine'))).rejects.toMatchObject({ code: 'guardrail_unavailable' });
  });
});

describe('input guardrails on embeddings inputs', () => {
  it('masks text inputs before the upstream, leaves token arrays, records the hit; a block sends nothing', async () => {
    const seen: EmbeddingRequest[] = [];
    const port: EmbeddingModelPort = {
      async embed(req) {
        seen.push(req);
        return { embeddings: req.inputs.map(() => [1, 0]), usage: { inputTokens: 3 }, warnings: [] };
      },
    };
    const model: ModelSpec = { id: 'e', kind: 'embedding', deployments: [{ provider: 'p', upstreamModel: 'up', priority: 0, weight: 1 }] };
    const specs: GuardrailSpec[] = [
      { id: 'pii', type: 'pii', mode: 'mask' },
      { id: 'falcon', type: 'regex', patterns: ['falcon'] },
    ];
    const rows: UsageRow[] = [];
    const embeddings = new Embeddings({
      catalogue: new ModelCatalogue([model], [{ name: 'g', models: ['*'] }]),
      usage: { record: (r) => rows.push(r), flush: async () => {} },
      providers: { embedding: () => port },
      guardrails: new Guardrails({ guardrails: new GuardrailSet(specs, [{ name: 'g', guardrails: ['pii', 'falcon'] }]) }),
    });
    const meta = { format: 'test', requestId: 'r', signal: new AbortController().signal };
    const names = { input: 'input', dimensions: 'dimensions' };
    await embeddings.embed(principal, { model, inputs: ['mail a@b.co', [1, 2, 3]] }, meta, names);
    expect(seen[0]!.inputs).toEqual(['mail [EMAIL]', [1, 2, 3]]);
    expect(rows[0]!.guardrails).toEqual([{ guardrail: 'pii', mode: 'mask', phase: 'input', action: 'masked' }]);
    await expect(embeddings.embed(principal, { model, inputs: ['falcon'] }, meta, names)).rejects.toMatchObject({
      code: 'guardrail_blocked',
    });
    expect(seen).toHaveLength(1);
  });
});

describe('input guardrails on video prompts', () => {
  it('masks the prompt the task keeps; a block refuses the task before anything is written', async () => {
    const clock = new ManualClock();
    const usage = new MemoryUsageLog();
    const tasks = new InMemoryTaskRepository({ now: clock.now, usage });
    const upstream = new FakeVideoModel();
    const specs: GuardrailSpec[] = [
      { id: 'pii', type: 'pii', mode: 'mask' },
      { id: 'falcon', type: 'regex', patterns: ['falcon'] },
    ];
    const videos = new VideoTasks({
      catalogue: fakeVideoCatalogue(),
      tasks,
      content: new InMemoryContentStore(clock.now),
      usage,
      providers: { video: () => upstream },
      limits: { maxActiveTasksPerAccount: 20 },
      now: clock.now,
      guardrails: new Guardrails({ guardrails: new GuardrailSet(specs, [{ name: 'default', guardrails: ['pii', 'falcon'] }]) }),
    });
    const base = { principal: ALPHA, modelId: 'sim-video-2.0', format: 'test', requestId: 'req_v' };
    const { task } = await videos.create({ ...base, draft: { prompt: 'a fox, call 415-555-2671' } });
    expect(task.request.prompt).toBe('a fox, call [PHONE]');
    await expect(videos.create({ ...base, draft: { prompt: 'a falcon' } })).rejects.toMatchObject({ code: 'guardrail_blocked' });
  });
});
