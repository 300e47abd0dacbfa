import { GatewayError } from '@gateway/core';
import type { AdapterTextPort, AdapterVideoPort } from './adapter-contract';
import { guardAdapterPorts } from './adapter-guard';

/** An outside adapter's failures become failures of the closed table, never crashes or hangs. */
const ctx = () => ({ signal: new AbortController().signal, requestId: 't' });
const ask = { model: 'm', messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };
const video = {
  model: 'm',
  upstreamModel: 'u',
  prompt: 'p',
  durationSeconds: 4,
  resolution: '720p',
  aspectRatio: '16:9',
  generateAudio: false,
  fps: 24,
} as const;
const never = () => new Promise<never>(() => undefined);
const release = { close: () => undefined, drain: () => undefined };

async function reasonOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return e instanceof GatewayError ? e.reason : `not a GatewayError: ${String(e)}`;
  }
  return 'no failure';
}
async function drain(parts: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const p of parts) out.push(p);
  return out;
}

it('a stream that goes quiet after its first part ends as upstream_timeout, and the adapter is told to stop', async () => {
  let stopped = false;
  const text: AdapterTextPort = {
    generate: never,
    async *stream(_req, c) {
      c.signal.addEventListener('abort', () => (stopped = true));
      yield { type: 'text-delta', delta: 'a' };
      await never();
    },
  };
  const port = guardAdapterPorts({ text, ...release }, { firstByteMs: 5000, idleMs: 50 }).text!;
  const parts: unknown[] = [];
  const reason = await reasonOf(
    (async () => {
      for await (const p of port.stream(ask, ctx())) parts.push(p);
    })(),
  );
  expect({ reason, parts, stopped }).toEqual({ reason: 'upstream_timeout', parts: [{ type: 'text-delta', delta: 'a' }], stopped: true });
});

it('a stream without its finish part, or with a part after it, is a failing upstream', async () => {
  const ends = (parts: unknown[]): AdapterTextPort => ({
    generate: never,
    async *stream() {
      for (const p of parts) yield p as never;
    },
  });
  const finish = { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1 } };
  const guard = (t: AdapterTextPort) => guardAdapterPorts({ text: t, ...release }, undefined).text!;
  expect(await reasonOf(drain(guard(ends([{ type: 'text-delta', delta: 'a' }])).stream(ask, ctx())))).toBe('upstream_unavailable');
  expect(await reasonOf(drain(guard(ends([finish, { type: 'text-delta', delta: 'late' }])).stream(ask, ctx())))).toBe(
    'upstream_malformed_response',
  );
  expect(await drain(guard(ends([{ type: 'text-delta', delta: 'a' }, finish])).stream(ask, ctx()))).toHaveLength(2);
});

it('a plain object with a closed-table reason keeps its reason; anything else thrown is upstream_unavailable', async () => {
  const throwing = (e: unknown): AdapterTextPort => ({
    generate: () => {
      throw e;
    },
    stream: () => {
      throw e;
    },
  });
  const guard = (e: unknown) => guardAdapterPorts({ text: throwing(e), ...release }, undefined).text!;
  expect(await reasonOf(guard({ reason: 'rate_limited', message: 'slow down' }).generate(ask, ctx()))).toBe('rate_limited');
  expect(await reasonOf(guard(new TypeError('x')).generate(ask, ctx()))).toBe('upstream_unavailable');
  expect(await reasonOf(drain(guard('a string').stream(ask, ctx())))).toBe('upstream_unavailable');
});

it('video: a start that hangs, an empty reference and an unreadable status are failing upstreams', async () => {
  const port = (v: Partial<AdapterVideoPort>) =>
    guardAdapterPorts({ video: { start: never, status: never, ...v } as AdapterVideoPort, ...release }, { firstByteMs: 50 }).video!;
  expect(await reasonOf(port({}).start(video, { taskId: 't' }))).toBe('upstream_timeout');
  expect(await reasonOf(port({ start: async () => '' }).start(video, { taskId: 't' }))).toBe('upstream_malformed_response');
  expect(await reasonOf(port({ status: async () => ({ state: 'done' }) as never }).status('r', { taskId: 't' }))).toBe(
    'upstream_malformed_response',
  );
  expect(await port({ status: async () => ({ state: 'failed' }) as never }).status('r', { taskId: 't' })).toMatchObject({
    state: 'failed',
    code: 'upstream_failed',
  });
});

it('a failing close() of one adapter does not stop the shutdown', () => {
  const ports = guardAdapterPorts(
    {
      close: () => {
        throw new Error('x');
      },
      drain: () => undefined,
    },
    undefined,
  );
  expect(() => ports.close()).not.toThrow();
});
