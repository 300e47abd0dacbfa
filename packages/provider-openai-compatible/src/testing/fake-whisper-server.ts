/**
 * A fake OpenAI-compatible transcription server, as vLLM and faster-whisper servers answer: `POST
 * /v1/audio/transcriptions` and `/translations` (multipart) with `json`, `text` and `verbose_json` only (srt and vtt
 * are refused, so a gateway that forces a format shows), no `usage` in the answer, no key needed unless one is set.
 */
import type http from 'node:http';
import { readMultipart, sendJson, startFakeHttp, type FakeHttpRequest, type FakeHttpServer } from '@gateway/testkit';

export interface FakeWhisperServer {
  /** the server's base, `/v1` included */
  url: string;
  api: FakeHttpServer;
  /** the fields of each form (testkit's readMultipart: lists as arrays, the file as {name, type, size, bytes}) */
  forms(): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

const errorBody = (status: number, message: string) => ({ object: 'error', message, type: 'BadRequestError', param: null, code: status });

const DURATION = 2.4;

async function transcribe(task: string, r: FakeHttpRequest, res: http.ServerResponse) {
  const f = await readMultipart(r);
  const file = f.file as { name: string; size: number } | undefined;
  if (!file || typeof file !== 'object') return sendJson(res, 400, errorBody(400, 'file is required'));
  const format = String(f.response_format ?? 'json');
  if (!['json', 'text', 'verbose_json'].includes(format))
    return sendJson(res, 400, errorBody(400, `Unsupported response_format: ${format}`));
  const text = `Whisper heard ${file.size} bytes.`;
  if (format === 'text') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    return void res.end(text);
  }
  if (format === 'json') return sendJson(res, 200, { text });
  const granularities = (f.timestamp_granularities as string[] | undefined) ?? ['segment'];
  sendJson(res, 200, {
    task,
    language: 'en',
    duration: DURATION,
    text,
    segments: granularities.includes('segment')
      ? [{ id: 0, seek: 0, start: 0, end: DURATION, text, tokens: [1, 2], temperature: 0 }]
      : null,
    words: granularities.includes('word') ? text.split(' ').map((word, i) => ({ word, start: i * 0.8, end: (i + 1) * 0.8 })) : null,
  });
}

export async function startFakeWhisperServer(opts: { apiKey?: string } = {}): Promise<FakeWhisperServer> {
  const guarded = (task: string) => (r: FakeHttpRequest, res: http.ServerResponse) =>
    opts.apiKey && r.headers.authorization !== `Bearer ${opts.apiKey}`
      ? sendJson(res, 401, errorBody(401, 'Unauthorized'))
      : transcribe(task, r, res);
  const api = await startFakeHttp(
    [
      { kind: 'create', method: 'POST', pattern: /^\/v1\/audio\/transcriptions$/, handle: guarded('transcribe') },
      { kind: 'create', method: 'POST', pattern: /^\/v1\/audio\/translations$/, handle: guarded('translate') },
    ],
    errorBody,
  );
  return { url: `${api.origin}/v1`, api, forms: () => Promise.all(api.requests.map(readMultipart)), close: () => api.close() };
}
