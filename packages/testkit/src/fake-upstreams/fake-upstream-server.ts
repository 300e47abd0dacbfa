import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { anthropicMessagesDialect } from './fake-anthropic-messages';
import type { FakeDialect } from './fake-dialect';
import { geminiContentDialect } from './fake-gemini-content';
import { openAiChatDialect } from './fake-openai-chat';
import { openAiResponsesDialect } from './fake-openai-responses';
import { chunksOf, type FakeBehaviour, type FakeReply, type RecordedRequest } from './fake-script';
import { MALFORMED_ANSWERS } from './malformed-answers';

export const FAKE_DIALECTS = {
  openai: openAiChatDialect,
  'openai-responses': openAiResponsesDialect,
  anthropic: anthropicMessagesDialect,
  gemini: geminiContentDialect,
} as const;
export type FakeDialectName = keyof typeof FAKE_DIALECTS;

export interface FakeUpstream {
  readonly dialect: FakeDialectName;
  /** the base URL the provider's own SDK (and the gateway's provider config) takes */
  readonly url: string;
  readonly apiKey: string;
  /** every request received, oldest first */
  readonly requests: RecordedRequest[];
  /** TCP connections accepted so far (keep-alive reuse shows as fewer connections than requests) */
  readonly connections: number;
  /** answers the client left before their end (an aborted call must close its connection) */
  readonly closedEarly: number;
  /** behaviours for the next requests, in order; then the default */
  enqueue(...behaviours: FakeBehaviour[]): void;
  /** the behaviour once the queue is empty (initially: a normal answer) */
  setDefault(behaviour: FakeBehaviour): void;
  /** forget queue, default and recorded requests */
  reset(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A server on 127.0.0.1 (ephemeral port) speaking one provider's wire format, scripted per request. */
export async function startFakeUpstream(dialect: FakeDialectName, opts: { apiKey?: string } = {}): Promise<FakeUpstream> {
  const d: FakeDialect = FAKE_DIALECTS[dialect];
  const apiKey = opts.apiKey ?? `fake-${dialect}-key-0001`;
  const requests: RecordedRequest[] = [];
  let queue: FakeBehaviour[] = [];
  let fallback: FakeBehaviour = {};
  const sockets = new Set<Socket>();
  let counter = 0;
  let closedEarly = 0;

  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
      rawBody,
    };
    requests.push(recorded);
    res.on('close', () => {
      if (!res.writableEnded) closedEarly++;
    });
    const b = queue.shift() ?? fallback;
    const requestId = `req_fake_${++counter}`;
    const sendError = (status: number, message: string, reason?: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', [d.requestIdHeader]: requestId, ...headers });
      res.end(JSON.stringify(d.errorBody(status, message, reason)));
    };

    if (b.hang) return; // the socket stays open until the client gives up or the fake closes
    if (b.reset === 'before-headers') {
      req.socket.destroy();
      return;
    }
    if (b.latencyMs) await sleep(b.latencyMs);
    if (b.raw) {
      res.writeHead(b.raw.status, b.raw.headers ?? {});
      res.end(b.raw.body);
      return;
    }
    const route = d.route(recorded.method, recorded.path, recorded);
    if (!route) return sendError(404, `No route for ${recorded.method} ${recorded.path}.`);
    const denied = d.checkAuth(req.headers, apiKey);
    if (denied) return sendError(denied.status, denied.message, denied.reason);
    if (body === undefined) return sendError(400, 'The request body is not valid JSON.');
    if (b.status && b.status >= 400)
      return sendError(b.status, b.errorMessage ?? `Fake ${dialect} failure ${b.status}.`, undefined, b.headers);
    if (b.malformed) {
      res.writeHead(200, { 'content-type': route.stream ? 'text/event-stream' : 'application/json' });
      res.end(route.stream ? MALFORMED_ANSWERS[dialect].chunk : MALFORMED_ANSWERS[dialect].answers[0]);
      return;
    }

    if (route.count && d.countTokens) {
      res.writeHead(200, { 'content-type': 'application/json', [d.requestIdHeader]: requestId, ...b.headers });
      res.end(JSON.stringify(d.countTokens(recorded)));
      return;
    }
    const reply: FakeReply = typeof b.reply === 'function' ? b.reply(recorded) : (b.reply ?? d.defaultReply(recorded));
    if (!route.stream) {
      res.writeHead(200, { 'content-type': 'application/json', [d.requestIdHeader]: requestId, ...b.headers });
      res.end(JSON.stringify(d.json(reply, route, recorded)));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', [d.requestIdHeader]: requestId, ...b.headers });
    const frames = d.frames(reply, route, recorded);
    const firstText = b.stallAfterFirstText ? JSON.stringify(chunksOf(reply.text ?? '')[0] ?? '').slice(1, -1) : undefined;
    for (let i = 0; i < frames.length; i++) {
      if (b.reset === i) {
        req.socket.destroy();
        return;
      }
      if (b.truncateAfter === i) break;
      if (b.streamErrorAfter === i) {
        res.write(d.streamErrorFrame('Fake upstream failure mid-stream.'));
        break;
      }
      if (b.chunkDelayMs) await sleep(b.chunkDelayMs);
      if (res.destroyed) return;
      res.write(frames[i]);
      if (firstText && frames[i]!.includes(firstText)) return; // held open: the client's abort or idle timeout ends it
    }
    res.end();
  };
  // a throw in this fake is a bug: left unhandled, as before, so the test run reports it
  const server = http.createServer((req, res) => void serve(req, res));
  let connections = 0;
  server.on('connection', (s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    dialect,
    url: origin + d.basePath,
    apiKey,
    requests,
    get connections() {
      return connections;
    },
    get closedEarly() {
      return closedEarly;
    },
    enqueue: (...bs) => {
      queue.push(...bs);
    },
    setDefault: (bh) => {
      fallback = bh;
    },
    reset: () => {
      queue = [];
      fallback = {};
      requests.length = 0;
      closedEarly = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A base URL where nothing listens: the port was bound and released, so connecting is refused. */
export async function refusedUrl(basePath = ''): Promise<string> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return `http://127.0.0.1:${port}${basePath}`;
}
