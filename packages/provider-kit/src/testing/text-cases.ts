import { collectStream, type TextModelPort, type TextRequest, type TextStreamPart } from '@gateway/core';
import { check, type ConformanceCase, expectReason, failure, type FakeControl } from './conformance-case';

/**
 * What any TextModelPort must do, as data: run by `npx gateway adapter:test` against an outside package's own fake
 * process, and under jest against each built-in adapter with the in-process fake of its dialect
 * (describeTextModelConformance), both driven through the fake's control routes.
 */
export interface TextKitTarget {
  fake: FakeControl;
  /** the adapter as the gateway runs it, built with the key the fake accepts */
  port: TextModelPort;
  /** the same adapter built with a key the fake refuses */
  portWithKey(key: string): TextModelPort;
  key: string;
}

const ctx = (signal = new AbortController().signal) => ({ signal, requestId: 'adapter-kit' });
const ask = (text: string, extra: Partial<TextRequest> = {}): TextRequest => ({
  model: 'upstream-model-1',
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  ...extra,
});
const WEATHER = {
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

async function drain(parts: AsyncIterable<TextStreamPart>): Promise<TextStreamPart[]> {
  const out: TextStreamPart[] = [];
  for await (const p of parts) out.push(p);
  return out;
}

export const TEXT_CASES: ReadonlyArray<ConformanceCase<TextKitTarget>> = [
  {
    name: 'streaming order and usage',
    async run({ fake, port }) {
      await fake.control('/__fake/next', { reply: { text: 'alpha beta gamma', usage: { input: 11, output: 7 } } });
      const r = await port.generate(ask('hello'), ctx());
      const text = r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      check(text === 'alpha beta gamma', `generate: expected the text "alpha beta gamma", got ${JSON.stringify(text)}`);
      check(r.finishReason === 'stop', `generate: expected finishReason stop, got ${r.finishReason}`);
      check(r.usage.inputTokens === 11 && r.usage.outputTokens === 7, `generate: expected usage 11/7, got ${JSON.stringify(r.usage)}`);
      await fake.control('/__fake/next', { reply: { text: 'alpha beta gamma', usage: { input: 11, output: 7 } } });
      const parts = await drain(port.stream(ask('hello'), ctx()));
      const deltas = parts.filter((p) => p.type === 'text-delta');
      check(deltas.length > 1, `stream: expected several text deltas, got ${deltas.length}`);
      check(deltas.map((p) => p.delta).join('') === 'alpha beta gamma', 'stream: the deltas do not add up to the answer');
      const last = parts[parts.length - 1];
      check(
        last?.type === 'finish' && parts.filter((p) => p.type === 'finish').length === 1,
        'stream: expected exactly one finish part, last',
      );
      check(
        last.usage.inputTokens === 11 && last.usage.outputTokens === 7,
        `stream: expected usage 11/7, got ${JSON.stringify(last.usage)}`,
      );
    },
  },
  {
    name: 'tool calls',
    async run({ fake, port }) {
      for (const stream of [false, true]) {
        await fake.control('/__fake/reset');
        await fake.control('/__fake/next', {
          reply: { toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Paris' } }] },
        });
        const req = ask('weather in Paris?', { tools: [WEATHER], toolChoice: 'auto' });
        const r = stream ? await collectStream(req.model, port.stream(req, ctx())) : await port.generate(req, ctx());
        const call = r.content.find((c) => c.type === 'tool-call');
        check(call?.type === 'tool-call' && call.name === 'get_weather' && call.id, `stream ${stream}: expected a get_weather tool call`);
        check(JSON.parse(call.arguments).city === 'Paris', `stream ${stream}: the tool call's arguments lost the city`);
        check(r.finishReason === 'tool-calls', `stream ${stream}: expected finishReason tool-calls, got ${r.finishReason}`);
        const log = (await fake.control('/__fake/log')) as { requests: unknown[] };
        check(JSON.stringify(log.requests).includes('get_weather'), `stream ${stream}: the tool definition was not sent upstream`);
      }
    },
  },
  {
    name: 'errors mapped to the closed error table',
    async run({ fake, port }) {
      await fake.control('/__fake/next', { status: 429, retryAfter: 7 });
      const limited = await failure(port.generate(ask('x'), ctx()));
      expectReason(limited, 'rate_limited', '429');
      check(limited.retryAfterSeconds === 7, `429: expected retryAfterSeconds 7, got ${limited.retryAfterSeconds}`);
      for (const status of [500, 503]) {
        await fake.control('/__fake/next', { status });
        expectReason(await failure(port.generate(ask('x'), ctx())), 'upstream_unavailable', String(status));
      }
      await fake.control('/__fake/next', { status: 400, message: 'messages: roles must alternate' });
      const bad = await failure(port.generate(ask('x'), ctx()));
      expectReason(bad, 'invalid_request', '400');
      check(bad.message.includes('roles must alternate'), '400: the upstream message was not kept');
      await fake.control('/__fake/next', { status: 503 });
      expectReason(await failure(drain(port.stream(ask('x'), ctx()))), 'upstream_unavailable', 'stream 503');
    },
  },
  {
    name: 'abort and cleanup',
    async run({ fake, port }) {
      await fake.control('/__fake/next', { reply: { text: 'first second third' }, hang: 'after-first' });
      const controller = new AbortController();
      const it = port.stream(ask('x'), ctx(controller.signal))[Symbol.asyncIterator]();
      // parts before the text (Anthropic's input usage) may come first
      let first = await it.next();
      while (!first.done && first.value.type !== 'text-delta') first = await it.next();
      check(!first.done, 'expected a first text delta before the upstream stalls');
      controller.abort();
      await it.next().then(
        (r) => check(r.done, 'a part arrived after the caller left'),
        () => undefined,
      );
      for (let i = 0; ; i++) {
        const log = (await fake.control('/__fake/log')) as { closedEarly: number };
        if (log.closedEarly > 0) break;
        check(i < 100, 'the upstream connection stayed open after the caller left (pass ctx.signal to fetch)');
        await new Promise((r) => setTimeout(r, 50));
      }
      await fake.control('/__fake/next', { hang: 'before' });
      expectReason(await failure(port.generate(ask('x'), ctx())), 'upstream_timeout', 'an upstream that never answers');
    },
  },
  {
    name: 'malformed answers',
    async run({ fake, port }) {
      await fake.control('/__fake/next', { malformed: true });
      expectReason(await failure(port.generate(ask('x'), ctx())), 'upstream_malformed_response', 'a malformed answer');
      await fake.control('/__fake/next', { malformed: true });
      expectReason(await failure(drain(port.stream(ask('x'), ctx()))), 'upstream_malformed_response', 'a malformed stream');
    },
  },
  {
    name: "redaction of the adapter's own key",
    async run({ fake, port, portWithKey, key }) {
      const wrong = `sk-kit-wrong-${Math.random().toString(36).slice(2)}-key`;
      const refused = await failure(portWithKey(wrong).generate(ask('x'), ctx()));
      expectReason(refused, 'upstream_error', 'a refused key');
      check(
        !JSON.stringify({ m: refused.message, c: refused.upstreamCode }).includes(wrong.slice(4, 20)),
        'the refused key is repeated in the failure',
      );
      await fake.control('/__fake/next', { status: 400, message: `your key ${key} is not allowed here` });
      const echoed = await failure(port.generate(ask('x'), ctx()));
      check(!echoed.message.includes(key), "the upstream's echo of the key reached the failure");
    },
  },
];
