import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { inspect } from 'node:util';
import { GatewayError, type TextModelPort, type TextStreamPart, type VideoModelPort } from '@gateway/core';
import { redactingPorts } from './redacting-ports';
import { createRedactor, REDACTED } from './secret-redactor';
import { UpstreamClient } from './upstream-client';
import { mapUpstreamStatus } from './upstream-errors';
import { s } from './upstream-schema';

/**
 * The one redaction point (redacting-ports.ts) against an upstream that puts its key everywhere it can: in an error
 * body, in a response header, in the URL and headers of a call that fails below HTTP, in a stream's error event. Each
 * response handler of the one client (JSON, event stream, binary) is driven through a port as the registry hands it
 * out. The raw port leaks (so the check can fail); the redacted one never does, in what a caller is answered, in what a
 * log line would print (util.inspect, causes included) or in the thrown error.
 */
const KEY = 'sk-upstream-secret-0123456789';

/** Everything a log line, an answer or a stored row could take from a value. */
const visible = (v: unknown) =>
  v instanceof Error ? `${v.message}\n${v.stack ?? ''}\n${JSON.stringify(v)}\n${inspect(v, { depth: 12 })}` : inspect(v, { depth: 12 });

const failedRead = async (fn: () => Promise<unknown>): Promise<unknown> =>
  fn().then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );

async function fakeUpstream() {
  const server = http.createServer(async (req, res) => {
    for await (const chunk of req) void chunk;
    const path = new URL(req.url!, 'http://x').pathname;
    const quoting = JSON.stringify({ error: { message: `invalid key ${KEY}` } });
    if (path.endsWith('/body')) return void res.writeHead(400, { 'content-type': 'application/json' }).end(quoting);
    if (path.endsWith('/header')) return void res.writeHead(503, { 'x-request-id': `req-${KEY}` }).end();
    if (path.endsWith('/event')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return void res.end(`data: {"text":"hi"}\n\nevent: error\ndata: ${quoting}\n\n`);
    }
    if (path.endsWith('/ok-stream')) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': `req-${KEY}` });
      return void res.end('data: {"text":"hi"}\n\n');
    }
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req-${KEY}` }).end('{"text":"hi"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** a port nothing listens on: calls there fail below HTTP, with the URL and headers in their cause */
    unreachable: `http://127.0.0.1:${closedPort}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const answerSchema = s.object({ text: s.string() });

/** A minimal adapter over the client: generate reads JSON, stream reads events, a video's result is read as bytes. */
function ports(client: UpstreamClient, query?: Record<string, string>) {
  const text: TextModelPort = {
    async generate(req) {
      const res = await client.request({ method: 'POST', path: `/${req.model}`, json: {}, query });
      const body = await res.json(answerSchema, 'an answer');
      return {
        model: req.model,
        content: [{ type: 'text', text: body.text ?? '' }],
        finishReason: 'stop',
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        warnings: [],
        upstreamRequestId: res.requestId,
      };
    },
    async *stream(req): AsyncGenerator<TextStreamPart> {
      const res = await client.request({ method: 'POST', path: `/${req.model}`, json: {}, query });
      for await (const ev of res.events()) {
        const data = JSON.parse(ev.data) as { text?: string; error?: { message: string } };
        if (ev.event === 'error') throw new GatewayError('upstream_error', `The upstream failed: ${data.error?.message}`);
        yield { type: 'text-delta', delta: data.text ?? '' };
      }
      yield {
        type: 'finish',
        finishReason: 'stop',
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        upstreamRequestId: res.requestId,
      };
    },
  };
  const video: VideoModelPort = {
    start: async () => 'op1',
    status: async (ref) => ({ state: 'succeeded', artifact: { open: async () => Readable.from((await client.download(ref)).body()) } }),
  };
  return { text, video, close: () => client.destroy(), drain: () => client.drain() };
}

const describeFailure = (f: Parameters<typeof mapUpstreamStatus>[0]) =>
  mapUpstreamStatus(f, { message: (f.json as { error?: { message?: string } } | undefined)?.error?.message });

describe('upstream secrets pass the one redaction point (redacting ports) with every response handler', () => {
  let up: Awaited<ReturnType<typeof fakeUpstream>>;
  const clients: UpstreamClient[] = [];
  beforeAll(async () => {
    up = await fakeUpstream();
  });
  afterAll(async () => {
    for (const c of clients) c.destroy();
    await up.close();
  });
  /** the raw ports and the ports as the registry hands them out, over one client to `baseUrl` */
  const both = (baseUrl: string) => {
    const client = new UpstreamClient({ baseUrl, headers: { authorization: `Bearer ${KEY}` }, describeFailure });
    clients.push(client);
    const raw = ports(client, { key: KEY });
    return { raw, redacted: redactingPorts(raw, createRedactor([KEY])) };
  };
  const req = (model: string) => ({ model, messages: [] }) as never;
  const ctx = { signal: new AbortController().signal } as never;
  const drain = async (parts: AsyncIterable<TextStreamPart>) => {
    const out: TextStreamPart[] = [];
    for await (const p of parts) out.push(p);
    return out;
  };

  type Port = ReturnType<typeof both>['raw'];
  const cases: Array<[string, string, (p: Port) => Promise<unknown>, 'answer' | 'error']> = [
    ['JSON', 'a quoting error body', (p) => p.text.generate(req('body'), ctx), 'error'],
    ['JSON', 'a response header of a failure', (p) => p.text.generate(req('header'), ctx), 'error'],
    ['JSON', "a successful answer's request id", (p) => p.text.generate(req('ok'), ctx), 'answer'],
    ['event stream', 'a quoting error body', (p) => drain(p.text.stream(req('body'), ctx)), 'error'],
    ['event stream', 'an error event in the stream', (p) => drain(p.text.stream(req('event'), ctx)), 'error'],
    ['event stream', "the finish part's request id", (p) => drain(p.text.stream(req('ok-stream'), ctx)), 'answer'],
  ];

  it.each(cases)('%s handler, the key in %s', async (_handler, _where, call, kind) => {
    const { raw, redacted } = both(up.origin);
    const read = async (p: Port) => (kind === 'answer' ? call(p) : failedRead(() => call(p)));
    expect(visible(await read(raw))).toContain(KEY);
    const seen = visible(await read(redacted));
    expect(seen).not.toContain(KEY);
    expect(seen).toContain(REDACTED);
  });

  it.each([
    ['a quoting error body', (origin: string) => `${origin}/files/body`],
    ['a response header of a failure', (origin: string) => `${origin}/files/header`],
  ])('binary handler, the key in %s', async (_where, link) => {
    const { raw, redacted } = both(up.origin);
    const open = (p: Port) => async () => {
      const s = await p.video.status(link(up.origin), { taskId: 't1' });
      if (s.state !== 'succeeded') throw new Error('expected a result');
      return s.artifact.open();
    };
    expect(visible(await failedRead(open(raw)))).toContain(KEY);
    expect(visible(await failedRead(open(redacted)))).not.toContain(KEY);
  });

  it('a download that fails below HTTP keeps its URL and headers out of the error', async () => {
    const { redacted } = both(up.origin);
    const result = await redacted.video.status(`${up.unreachable}/files/f.mp4?sig=${KEY}`, { taskId: 't1' });
    if (result.state !== 'succeeded') throw new Error('expected a result');
    const e = await failedRead(() => result.artifact.open());
    expect(e).toMatchObject({ code: 'upstream_unreachable' });
    expect(visible(e)).not.toContain(KEY);
  });

  it('a call that fails below HTTP keeps its URL and headers out of the error', async () => {
    const { redacted } = both(up.unreachable);
    const e = await failedRead(() => redacted.text.generate(req('ok'), ctx));
    expect(e).toMatchObject({ code: 'upstream_unreachable' });
    expect(visible(e)).not.toContain(KEY);
  });
});
