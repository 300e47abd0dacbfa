/**
 * What the fake video upstreams (Veo, Sora, Ark) share: a book of tasks that really run over time
 * (queued → running → succeeded / failed / expired by a script read from the prompt), distinct real
 * MP4 bytes per task, a counted submission log, scripted HTTP failures (429 + Retry-After …), and a
 * small HTTP server on 127.0.0.1 (plus a second "storage host" for result downloads).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';

export type FakeTaskState = 'queued' | 'running' | 'succeeded' | 'failed' | 'expired' | 'cancelled';
export type FakeOutcome = 'succeeded' | 'failed' | 'expired' | 'filtered';

/**
 * How one task runs. Markers in the prompt choose it: `[fail]`, `[expire]`, `[filtered]`, `[hold]` (stays queued),
 * `[slow]` (runs 10 min), `[unstated]` (the answer states no shape), `[delivered:N]` (the answer reports N seconds).
 */
export interface FakeTaskScript {
  queuedMs: number;
  runningMs: number;
  outcome: FakeOutcome;
  failCode?: string;
  failMessage?: string;
  /**
   * the task answer reports this many seconds rendered (a shorter video than asked); default what was asked. Only
   * fakes whose upstream states a duration (Ark, Sora, Kling, DashScope) carry it.
   */
  deliveredSeconds?: number;
  /**
   * the task answer states no shape at all (no size, resolution, ratio, duration, fps): the gateway must measure the
   * file. Fakes whose upstream never states a shape (Veo, Runway) answer the same either way.
   */
  unstatedShape?: boolean;
}

export interface FakeVideoOptions {
  apiKey?: string;
  /** defaults for every task (ms) */
  queuedMs?: number;
  runningMs?: number;
  /** overrides the marker rules */
  script?: (prompt: string) => Partial<FakeTaskScript> | undefined;
  /** extra bytes in each MP4 (a `free` box), to make downloads large */
  padBytes?: number;
  now?: () => number;
}

export interface FakeTask {
  id: string;
  model: string;
  prompt: string;
  /** what the create request carried, for assertions (decoded JSON, or multipart fields and file names) */
  body: Record<string, unknown>;
  createdAt: number;
  script: FakeTaskScript;
  cancelledAt?: number;
  deleted?: boolean;
}

const FIXTURE = readFileSync(path.join(__dirname, '__fixtures__', 'fake-video.mp4'));

/** A valid MP4 (H.264 + AAC, 1 s) followed by a `free` box naming the task: distinct bytes per task, still playable. */
export function fakeMp4(taskId: string, padBytes = 0): Buffer {
  const payload = Buffer.concat([Buffer.from(`fake-upstream-task:${taskId};`), Buffer.alloc(padBytes, 0x2e)]);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length, 0);
  header.write('free', 4, 'latin1');
  return Buffer.concat([FIXTURE, header, payload]);
}

const MARKERS: Array<[string, Partial<FakeTaskScript>]> = [
  ['[fail]', { outcome: 'failed' }],
  ['[expire]', { outcome: 'expired' }],
  ['[filtered]', { outcome: 'filtered' }],
  ['[hold]', { queuedMs: 24 * 3600_000 }],
  ['[slow]', { runningMs: 600_000 }],
  ['[unstated]', { unstatedShape: true }],
];
const DELIVERED = /\[delivered:(\d{1,3})\]/;

export class FakeTaskBook {
  readonly tasks = new Map<string, FakeTask>();
  /** every accepted create, in order (a resubmitted prompt shows up twice) */
  readonly submissions: FakeTask[] = [];
  private seq = 0;
  readonly now: () => number;

  constructor(
    private readonly opts: FakeVideoOptions,
    private readonly idPrefix: string,
  ) {
    this.now = opts.now ?? Date.now;
  }

  create(model: string, prompt: string, body: Record<string, unknown>): FakeTask {
    let script: FakeTaskScript = { queuedMs: this.opts.queuedMs ?? 100, runningMs: this.opts.runningMs ?? 200, outcome: 'succeeded' };
    for (const [marker, s] of MARKERS) if (prompt.includes(marker)) script = { ...script, ...s };
    const delivered = DELIVERED.exec(prompt);
    if (delivered) script.deliveredSeconds = Number(delivered[1]);
    script = { ...script, ...this.opts.script?.(prompt) };
    const id = `${this.idPrefix}${(++this.seq).toString(36)}${Math.random().toString(36).slice(2, 10)}`;
    const task: FakeTask = { id, model, prompt, body, createdAt: this.now(), script };
    this.tasks.set(id, task);
    this.submissions.push(task);
    return task;
  }

  get(id: string): FakeTask | undefined {
    const t = this.tasks.get(id);
    return t && !t.deleted ? t : undefined;
  }

  /** How many times a prompt was submitted (the exactly-once check). */
  count(prompt: string): number {
    return this.submissions.filter((t) => t.prompt === prompt).length;
  }

  state(t: FakeTask): { state: FakeTaskState; progress: number } {
    const elapsed = this.now() - t.createdAt;
    const { queuedMs, runningMs, outcome } = t.script;
    if (t.cancelledAt !== undefined) return { state: 'cancelled', progress: 0 };
    if (elapsed < queuedMs) return { state: 'queued', progress: 0 };
    if (elapsed < queuedMs + runningMs) return { state: 'running', progress: Math.floor((100 * (elapsed - queuedMs)) / runningMs) };
    if (outcome === 'succeeded') return { state: 'succeeded', progress: 100 };
    if (outcome === 'expired') return { state: 'expired', progress: 0 };
    return { state: 'failed', progress: 0 };
  }

  bytes(t: FakeTask): Buffer {
    return fakeMp4(t.id, this.opts.padBytes ?? 0);
  }
}

/** What one recorded request looked like. */
export interface FakeHttpRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
}

export type FakeRouteKind = 'create' | 'poll' | 'list' | 'content' | 'cancel' | 'storage';

export interface FakeVideoRoute {
  kind: FakeRouteKind;
  method: string;
  pattern: RegExp;
  handle(req: FakeHttpRequest, res: http.ServerResponse, match: RegExpExecArray): void | Promise<void>;
}

/** A scripted failure for the next requests of one kind. */
export interface FakeFailure {
  status: number;
  retryAfterSeconds?: number;
  body?: unknown;
}

export interface FakeHttpServer {
  origin: string;
  requests: FakeHttpRequest[];
  /** requests answered per route kind (injected failures included) */
  counts: Record<FakeRouteKind, number>;
  failNext(kind: FakeRouteKind, times: number, failure: FakeFailure): void;
  close(): Promise<void>;
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** MP4 bytes, written in 64 KiB chunks so a large file really streams. */
export function sendBytes(res: http.ServerResponse, bytes: Buffer, type = 'video/mp4'): void {
  res.writeHead(200, { 'content-type': type, 'content-length': bytes.length });
  let i = 0;
  const next = () => {
    while (i < bytes.length) {
      const chunk = bytes.subarray(i, i + 65536);
      i += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', next);
    }
    res.end();
  };
  next();
}

/** A server on 127.0.0.1 (ephemeral port) routing to `routes`; `errorBody` shapes injected failures. */
export async function startFakeHttp(
  routes: FakeVideoRoute[],
  errorBody: (status: number, message: string) => unknown,
): Promise<FakeHttpServer> {
  const requests: FakeHttpRequest[] = [];
  const counts = { create: 0, poll: 0, list: 0, content: 0, cancel: 0, storage: 0 } as Record<FakeRouteKind, number>;
  const failures: Array<{ kind: FakeRouteKind; failure: FakeFailure }> = [];
  const sockets = new Set<Socket>();
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const r: FakeHttpRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      raw: Buffer.concat(chunks),
    };
    requests.push(r);
    for (const route of routes) {
      const m = route.method === r.method ? route.pattern.exec(r.path) : null;
      if (!m) continue;
      counts[route.kind]++;
      const i = failures.findIndex((f) => f.kind === route.kind);
      if (i >= 0) {
        const { failure } = failures.splice(i, 1)[0]!;
        const headers: Record<string, string> =
          failure.retryAfterSeconds !== undefined ? { 'retry-after': String(failure.retryAfterSeconds) } : {};
        return sendJson(res, failure.status, failure.body ?? errorBody(failure.status, `Injected failure ${failure.status}.`), headers);
      }
      try {
        return await route.handle(r, res, m);
      } catch (e) {
        return sendJson(res, 500, errorBody(500, (e as Error).message));
      }
    }
    sendJson(res, 404, errorBody(404, `No route for ${r.method} ${r.path}.`));
  };
  // a throw in this fake is a bug: left unhandled, as before, so the test run reports it
  const server = http.createServer((req, res) => void serve(req, res));
  server.keepAliveTimeout = 30_000;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    counts,
    failNext: (kind, times, failure) => {
      for (let i = 0; i < times; i++) failures.push({ kind, failure });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The multipart body of a recorded request: text fields, and file parts as {name, type, size, bytes}; the parts of a
 * list (`key[]`) as one array under `key`.
 */
export async function readMultipart(r: FakeHttpRequest): Promise<Record<string, unknown>> {
  const form = await new Request('http://fake/', {
    method: 'POST',
    headers: { 'content-type': String(r.headers['content-type']) },
    body: r.raw,
  }).formData();
  const out: Record<string, unknown> = {};
  for (const [k, v] of form.entries()) {
    const value = typeof v === 'string' ? v : { name: v.name, type: v.type, size: v.size, bytes: Buffer.from(await v.arrayBuffer()) };
    if (k.endsWith('[]')) ((out[k.slice(0, -2)] ??= []) as unknown[]).push(value);
    else out[k] = value;
  }
  return out;
}

export function readJson(r: FakeHttpRequest): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(r.raw.toString('utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

type JsonBody = Record<string, unknown>;
type FakeRoute = (r: FakeHttpRequest, res: http.ServerResponse) => void | Promise<void>;

/** Routes of a fake with one bearer key: a wrong key is 401 in the fake's own error body; the rest goes to the route. */
export function bearerRoutes(apiKey: string, errorBody: (status: number, message: string) => unknown, wrongKey: string) {
  return (handle: FakeRoute): FakeRoute =>
    (r, res) =>
      r.headers.authorization === `Bearer ${apiKey}` ? handle(r, res) : sendJson(res, 401, errorBody(401, wrongKey));
}

/**
 * The JSON routes of a fake with one bearer key: a wrong key is 401, a body `check` refuses is 400 (each in the fake's
 * own error body); the rest goes to `answer`.
 */
export function bearerJsonRoutes(apiKey: string, errorBody: (status: number, message: string) => unknown, wrongKey: string) {
  const authed = bearerRoutes(apiKey, errorBody, wrongKey);
  return (check: (b: JsonBody | undefined) => string | undefined, answer: (b: JsonBody, res: http.ServerResponse) => void) =>
    authed((r, res) => {
      const body = readJson(r);
      const bad = check(body);
      if (bad) return sendJson(res, 400, errorBody(400, bad));
      answer(body!, res);
    });
}
