import http from 'node:http';
import { LIMITS } from '@gateway/http-kit';
import { errorShapeProblem, type ErrorShape } from './endpoints';
import { recordCase, rowCounts, writeReport } from './fuzz-kit';
import { BETA_KEY, startTestGateway, type TestGateway } from '../support/test-gateway';

/**
 * The documented size limits (http-kit LIMITS: JSON body 32 MiB, file 25 MiB, 16 files, 100 fields, field value
 * 16 MiB): beyond them a 413 in the caller's format, whether the size is declared up front or only shows while
 * the body streams in, and nothing is written.
 */
jest.setTimeout(60_000);

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  writeReport('size-limits');
  await gw.stop();
});

interface Reply {
  status: number;
  body: any;
}

/**
 * Sends a request whose body `write` produces, and resolves with the answer as soon as it comes, even while the
 * body is still being written (the server may answer a 413 early and stop reading).
 */
function post(path: string, headers: Record<string, string | number>, write: (req: http.ClientRequest) => Promise<void>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${gw.url}${path}`,
      { method: 'POST', headers: { authorization: `Bearer ${BETA_KEY}`, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          req.destroy();
          try {
            resolve({ status: res.statusCode!, body: JSON.parse(text) });
          } catch {
            resolve({ status: res.statusCode!, body: text });
          }
        });
      },
    );
    req.on('error', (e) => (req.destroyed && (e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
    write(req).catch(() => undefined); // a failed write surfaces as the request's error above
  });
}

/** Writes exactly `bytes` of filler, honouring backpressure, stopping when the request is gone. */
async function pump(req: http.ClientRequest, bytes: number): Promise<void> {
  const chunk = Buffer.alloc(1 << 20, 0x61);
  for (let left = bytes; left > 0 && !req.destroyed; left -= chunk.length) {
    const ok = req.write(left >= chunk.length ? chunk : chunk.subarray(0, left));
    if (!ok) {
      await new Promise<void>((resolve) => {
        const done = () => {
          req.off('drain', done);
          req.off('close', done);
          resolve();
        };
        req.on('drain', done);
        req.on('close', done);
      });
    }
  }
}

const JSON_ROUTES: Array<{ name: string; path: string; shape: ErrorShape; headers?: Record<string, string> }> = [
  { name: 'chat', path: '/v1/chat/completions', shape: 'openai' },
  { name: 'messages', path: '/v1/messages', shape: 'anthropic', headers: { 'anthropic-version': '2023-06-01' } },
  { name: 'responses', path: '/v1/responses', shape: 'openai' },
  { name: 'generateContent', path: '/v1beta/models/sim-chat:generateContent', shape: 'google' },
  { name: 'predictLongRunning', path: '/v1beta/models/sim-video-2.0:predictLongRunning', shape: 'code-message' },
  { name: 'tasks', path: '/v1/contents/generations/tasks', shape: 'code-message' },
  { name: 'videos', path: '/v1/videos', shape: 'openai' },
  { name: 'images:edits', path: '/v1/images/edits', shape: 'openai' },
];

async function expect413(name: string, shape: ErrorShape, send: () => Promise<Reply>) {
  const before = await rowCounts(gw.db.knex);
  const r = await send();
  recordCase(`413 ${name}`, r.status);
  expect({ status: r.status, problem: errorShapeProblem(shape, r.body) }).toEqual({ status: 413, problem: null });
  expect(await rowCounts(gw.db.knex)).toEqual(before);
  return r.body;
}

// body-parser reads (and drops) the rest of an oversized body before it answers, so the connection stays usable:
// each case sends its whole body, declared up front or chunked, one route per error shape each way.
describe('JSON bodies over LIMITS.jsonBytes', () => {
  it.each(JSON_ROUTES.filter((r) => ['chat', 'messages', 'generateContent', 'predictLongRunning'].includes(r.name)))(
    '$name: a declared length over the limit is a 413',
    async ({ name, path, shape, headers }) => {
      const size = LIMITS.jsonBytes + 1024;
      await expect413(name, shape, () =>
        post(path, { 'content-type': 'application/json', 'content-length': size, ...headers }, async (req) => {
          req.write('{"model":"');
          await pump(req, size - 12);
          req.end('"}');
        }),
      );
    },
  );

  it.each(JSON_ROUTES.filter((r) => !['chat', 'messages', 'generateContent', 'predictLongRunning'].includes(r.name)))(
    '$name: an undeclared (chunked) body over the limit is a 413',
    async ({ name, path, shape, headers }) => {
      await expect413(`${name} chunked`, shape, () =>
        post(path, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...headers }, async (req) => {
          req.write('{"model":"');
          await pump(req, LIMITS.jsonBytes + (2 << 20));
          req.end('"}');
        }),
      );
    },
  );
});

describe('multipart limits', () => {
  const boundary = 'sizeLimitBoundary';
  const part = (name: string, data: string, filename?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? 'Content-Type: image/png\r\n' : ''}\r\n${data}\r\n`;
  const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
  const UPLOADS = [
    { name: 'videos', path: '/v1/videos', file: 'input_reference', fields: part('model', 'sim-video-2.0') + part('prompt', 'a cat') },
    { name: 'images:edits', path: '/v1/images/edits', file: 'image', fields: part('model', 'sim-image') + part('prompt', 'blue') },
    { name: 'audio:transcriptions', path: '/v1/audio/transcriptions', file: 'file', fields: part('model', 'whisper-1') },
  ];

  it.each(UPLOADS)('$name: a file over LIMITS.fileBytes is a 413', async (u) => {
    const body = await expect413(`${u.name} file size`, 'openai', () =>
      post(u.path, headers, async (req) => {
        req.write(
          u.fields +
            `--${boundary}\r\nContent-Disposition: form-data; name="${u.file}"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
        );
        await pump(req, LIMITS.fileBytes + (1 << 20));
        req.end(`\r\n--${boundary}--\r\n`);
      }),
    );
    expect(body.error.code).toBe('limit_file_size');
  });

  it.each(UPLOADS)(
    '$name: more than LIMITS.files files, more than LIMITS.fields fields, a field over LIMITS.fieldBytes: 413',
    async (u) => {
      const files = Array.from({ length: LIMITS.files + 1 }, (_, i) => part(u.file, 'x', `f${i}.png`)).join('');
      const fields = Array.from({ length: LIMITS.fields + 1 }, (_, i) => part(`f${i}`, 'x')).join('');
      for (const [what, body] of [
        ['file count', files],
        ['field count', fields],
      ]) {
        await expect413(`${u.name} ${what}`, 'openai', () =>
          post(u.path, headers, async (req) => void req.end(u.fields + body + `--${boundary}--\r\n`)),
        );
      }
      await expect413(`${u.name} field value`, 'openai', () =>
        post(u.path, headers, async (req) => {
          req.write(u.fields + `--${boundary}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\n`);
          await pump(req, LIMITS.fieldBytes + (1 << 20));
          req.end(`\r\n--${boundary}--\r\n`);
        }),
      );
    },
  );
});
