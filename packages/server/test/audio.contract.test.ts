import http from 'node:http';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { LIMITS } from '@gateway/http-kit';
import { probeMedia } from '@gateway/provider-simulator';
import { DEFAULT_CONFIG } from '../src/default-config';
import { binaryBody } from './support/binary-body';
import { ALPHA_KEY, BETA_KEY, startTestGateway, testConfigFile, withPricing, type TestGateway } from './support/test-gateway';

let gw: TestGateway;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'audio-contract-'));
  // alpha's group has no audio model: "not in group" answers as on chat
  gw = await startTestGateway({
    config: withPricing(testConfigFile({ models: DEFAULT_CONFIG.models }), {
      'sim-speech': { perMillionCharacters: 15 },
      'sim-transcribe': { perAudioMinute: 0.6 },
    }),
  });
});
afterAll(async () => {
  await gw.stop();
  rmSync(dir, { recursive: true, force: true });
});

const beta = { Authorization: `Bearer ${BETA_KEY}` };
const TEXT = 'The quick brown fox. It jumps over the lazy dog!';

const speak = (body: Record<string, unknown>) =>
  binaryBody(
    request(gw.app)
      .post('/v1/audio/speech')
      .set(beta)
      .send({ model: 'tts-1', voice: 'alloy', input: TEXT, ...body }),
  );

async function usageRow(requestId: string) {
  await gw.usage.flush();
  return gw.db.knex('usage_log').where({ request_id: requestId }).first();
}

function expectOpenAiError(res: request.Response, status: number, param?: string) {
  expect(res.status).toBe(status);
  const body = Buffer.isBuffer(res.body) ? JSON.parse(res.body.toString()) : res.body;
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  if (param !== undefined) expect(body.error.param).toBe(param);
  return body.error as { code: string; message: string };
}

/** SSE text → [{event, data}] */
function events(text: string): Array<{ event?: string; data: any }> {
  return text
    .split('\n\n')
    .filter((b) => b.trim())
    .map((block) => ({ event: /^event: (.*)$/m.exec(block)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) }));
}

const transcribe = (file: Buffer, filename: string, fields: Record<string, string | string[]> = {}, route = 'transcriptions') => {
  const req = request(gw.app).post(`/v1/audio/${route}`).set(beta).field('model', 'whisper-1');
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) req.field(k, one);
  return req.attach('file', file, filename);
};

describe('POST /v1/audio/speech', () => {
  it.each([
    ['mp3', 'audio/mpeg', 'mp3'],
    ['opus', 'audio/ogg', 'opus'],
    ['aac', 'audio/aac', 'aac'],
    ['flac', 'audio/flac', 'flac'],
    ['wav', 'audio/wav', 'pcm_s16le'],
  ])('%s: a real file with its content type, chunked, that ffmpeg reads', async (format, type, codec) => {
    const res = await speak({ response_format: format });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['content-length']).toBeUndefined();
    const file = path.join(dir, `speech.${format}`);
    writeFileSync(file, res.body as Buffer);
    expect((await probeMedia(file)).audio?.codec).toBe(codec);
  });

  it('mp3 by default; pcm is bare 24 kHz 16-bit samples; a longer text is a longer file; speed shortens it', async () => {
    const mp3 = await speak({});
    expect(mp3.headers['content-type']).toBe('audio/mpeg');
    const pcm = await speak({ response_format: 'pcm' });
    expect(pcm.headers['content-type']).toBe('audio/pcm');
    expect((pcm.body as Buffer).length).toBe([...TEXT].length * 1440 * 2);
    expect(((await speak({ response_format: 'pcm', input: TEXT + TEXT })).body as Buffer).length).toBe(2 * (pcm.body as Buffer).length);
    expect(((await speak({ response_format: 'pcm', speed: 2 })).body as Buffer).length).toBe((pcm.body as Buffer).length / 2);
  });

  it('sse: speech.audio.delta pieces of the same file, then speech.audio.done with usage', async () => {
    const wav = await speak({ response_format: 'wav' });
    const res = await request(gw.app)
      .post('/v1/audio/speech')
      .set(beta)
      .send({ model: 'gpt-4o-mini-tts', voice: 'alloy', input: TEXT, response_format: 'wav', stream_format: 'sse' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const evs = events(res.text);
    const deltas = evs.filter((e) => e.data.type === 'speech.audio.delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(Buffer.concat(deltas.map((e) => Buffer.from(e.data.audio, 'base64'))).equals(wav.body as Buffer)).toBe(true);
    expect(evs.at(-1)!.data).toMatchObject({
      type: 'speech.audio.done',
      usage: { input_tokens: expect.any(Number), total_tokens: expect.any(Number) },
    });
  });

  it('writes one usage row with the characters and their price', async () => {
    const res = await speak({ response_format: 'pcm', voice: { id: 'voice_custom_1' } });
    expect(res.status).toBe(200);
    const row = await usageRow(res.headers['x-request-id']!);
    expect(row).toMatchObject({ model: 'sim-speech', format: 'openai-audio', status: 'ok', characters: [...TEXT].length });
    expect(Number(row.credits)).toBeCloseTo((15 * [...TEXT].length) / 1e6, 8);
  });

  it('refuses in OpenAI’s shape before any upstream call, naming the field', async () => {
    expectOpenAiError(await speak({ input: 'x'.repeat(4097) }), 400, 'input');
    expectOpenAiError(await speak({ input: '' }), 400, 'input');
    expectOpenAiError(await speak({ speed: 5 }), 400, 'speed');
    expectOpenAiError(await speak({ response_format: 'ogg' }), 400, 'response_format');
    expectOpenAiError(await speak({ stream_format: 'chunks' }), 400, 'stream_format');
    expectOpenAiError(await speak({ volume: 3 }), 400, 'volume');
    expectOpenAiError(await speak({ voice: { name: 'x' } }), 400);
    expectOpenAiError(await speak({ model: 'no-such-voice-model' }), 404);
    expect(expectOpenAiError(await speak({ model: 'sim-chat' }), 400).code).toBe('model_kind_mismatch');
    const alpha = await request(gw.app)
      .post('/v1/audio/speech')
      .set({ Authorization: `Bearer ${ALPHA_KEY}` })
      .send({ model: 'tts-1', voice: 'alloy', input: 'hi' });
    expect(alpha.status).toBeGreaterThanOrEqual(400);
    expect(alpha.body.error.message).toMatch(/sim-speech|tts-1/);
    expectOpenAiError(await request(gw.app).post('/v1/audio/speech').send({ model: 'tts-1', voice: 'alloy', input: 'hi' }), 401);
  });
});

describe('POST /v1/audio/transcriptions and /translations', () => {
  let wav: Buffer;
  let mp3: Buffer;
  beforeAll(async () => {
    wav = (await speak({ response_format: 'wav' })).body as Buffer;
    mp3 = (await speak({ response_format: 'mp3' })).body as Buffer;
  });

  it('a file the simulator spoke transcribes back to its words (json, with the billed seconds)', async () => {
    for (const [file, name] of [
      [wav, 'speech.wav'],
      [mp3, 'speech.mp3'],
    ] as const) {
      const res = await transcribe(file, name);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ text: TEXT, usage: { type: 'duration', seconds: 3 } });
    }
  });

  it('text, srt and vtt are text/plain; subtitles are timed inside the audio, one cue per sentence', async () => {
    const text = await transcribe(wav, 'a.wav', { response_format: 'text' });
    expect(text.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(text.text).toBe(`${TEXT}\n`);
    const srt = await transcribe(wav, 'a.wav', { response_format: 'srt' });
    expect(srt.headers['content-type']).toMatch(/^text\/plain/);
    expect(srt.text).toBe(
      '1\n00:00:00,000 --> 00:00:01,200\nThe quick brown fox.\n\n2\n00:00:01,260 --> 00:00:02,880\nIt jumps over the lazy dog!\n\n',
    );
    const vtt = await transcribe(wav, 'a.wav', { response_format: 'vtt' });
    expect(vtt.headers['content-type']).toMatch(/^text\/plain/);
    expect(vtt.text.startsWith('WEBVTT\n\n00:00:00.000 --> 00:00:01.200\nThe quick brown fox.\n')).toBe(true);
  });

  it('verbose_json with word and segment timestamps, sent as key[] or as a repeated key', async () => {
    for (const key of ['timestamp_granularities[]', 'timestamp_granularities']) {
      const res = await transcribe(wav, 'a.wav', { response_format: 'verbose_json', [key]: ['word', 'segment'] });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ task: 'transcribe', language: 'english', duration: 2.88, text: TEXT });
      expect(res.body.words.map((w: { word: string }) => w.word)).toEqual([
        'The',
        'quick',
        'brown',
        'fox',
        'It',
        'jumps',
        'over',
        'the',
        'lazy',
        'dog',
      ]);
      expect(res.body.segments).toHaveLength(2);
    }
    const words = await transcribe(wav, 'a.wav', { response_format: 'verbose_json', 'timestamp_granularities[]': 'word' });
    expect(words.body.segments).toBeUndefined();
  });

  it('other audio gets a deterministic text inside its duration', async () => {
    // a WAV the simulator did not speak: a plain 44-byte header over a rising ramp, 2 s at 8 kHz
    const samples = Buffer.alloc(32_000);
    for (let i = 0; i < 16_000; i++) samples.writeInt16LE((i % 200) * 100 - 10_000, i * 2);
    const header = Buffer.alloc(44);
    header.write('RIFF', 0);
    header.writeUInt32LE(36 + samples.length, 4);
    header.write('WAVEfmt ', 8);
    header.writeUInt32LE(16, 16);
    header.writeUInt16LE(1, 20);
    header.writeUInt16LE(1, 22);
    header.writeUInt32LE(8000, 24);
    header.writeUInt32LE(16_000, 28);
    header.writeUInt16LE(2, 32);
    header.writeUInt16LE(16, 34);
    header.write('data', 36);
    header.writeUInt32LE(samples.length, 40);
    const tone = Buffer.concat([header, samples]);
    const a = await transcribe(tone, 'tone.wav', { response_format: 'verbose_json' });
    const b = await transcribe(tone, 'tone.wav', { response_format: 'verbose_json' });
    expect(a.body.text).toBe(b.body.text);
    expect(a.body).toMatchObject({ duration: 2, text: expect.stringMatching(/^[A-Z][a-z]+( [a-z]+)*\.$/) });
    expect(a.body.text.split(' ')).toHaveLength(5);
    expect(a.body.segments.at(-1).end).toBeLessThanOrEqual(2);
  });

  it('stream=true: transcript.text.delta events that add up to the text, then transcript.text.done with usage', async () => {
    const res = await transcribe(wav, 'a.wav', { stream: 'true' });
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const evs = events(res.text);
    const deltas = evs.filter((e) => e.data.type === 'transcript.text.delta').map((e) => e.data.delta);
    expect(deltas.join('')).toBe(TEXT);
    expect(evs.at(-1)!.data).toEqual({ type: 'transcript.text.done', text: TEXT, usage: { type: 'duration', seconds: 3 } });
  });

  it('translations answer the English text; one usage row per call with its audio seconds and price', async () => {
    const res = await transcribe(mp3, 'speech.mp3', { response_format: 'verbose_json' }, 'translations');
    expect(res.body).toMatchObject({ task: 'translate', language: 'english', text: TEXT });
    const json = await transcribe(wav, 'speech.wav', {}, 'translations');
    expect(json.body).toEqual({ text: TEXT });
    const row = await usageRow(json.headers['x-request-id']!);
    expect(row).toMatchObject({ model: 'sim-transcribe', format: 'openai-audio', status: 'ok' });
    expect(row.audio_seconds).toBeCloseTo(2.88, 2);
    expect(Number(row.credits)).toBeCloseTo((0.6 * 2.88) / 60, 5);
    expectOpenAiError(await transcribe(wav, 'a.wav', { language: 'de' }, 'translations'), 400, 'language');
  });

  it('refuses in OpenAI’s shape, naming the field: no file, not audio, bad fields, unknown model', async () => {
    expectOpenAiError(await request(gw.app).post('/v1/audio/transcriptions').set(beta).field('model', 'whisper-1'), 400, 'file');
    expectOpenAiError(await transcribe(Buffer.from('hello'), 'notes.txt'), 400, 'file');
    expectOpenAiError(await transcribe(Buffer.from('definitely not audio'), 'fake.mp3'), 400, 'file');
    expectOpenAiError(await transcribe(wav, 'a.wav', { response_format: 'diarized_json' }), 400, 'response_format');
    expectOpenAiError(await transcribe(wav, 'a.wav', { temperature: '3' }), 400, 'temperature');
    expectOpenAiError(await transcribe(wav, 'a.wav', { 'timestamp_granularities[]': 'sentence' }), 400);
    expectOpenAiError(await transcribe(wav, 'a.wav', { colour: 'blue' }), 400, 'colour');
    const unknown = request(gw.app)
      .post('/v1/audio/transcriptions')
      .set(beta)
      .field('model', 'no-such-whisper')
      .attach('file', wav, 'a.wav');
    expectOpenAiError(await unknown, 404);
    expectOpenAiError(await request(gw.app).post('/v1/audio/transcriptions').set(beta).send({ model: 'whisper-1' }), 400);
  });

  it(`an upload over ${LIMITS.fileBytes} bytes is a 413 while it streams in, and leaves nothing on disk`, async () => {
    const before = new Set(readdirSync(os.tmpdir()));
    const boundary = 'audioLimitBoundary';
    const url = new URL(`${gw.url}/v1/audio/transcriptions`);
    const answer = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { ...beta, 'content-type': `multipart/form-data; boundary=${boundary}` },
        },
        (res) => {
          answered = true;
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => {
            req.destroy();
            resolve({ status: res.statusCode!, body, sent });
          });
        },
      );
      req.on('error', (e) => (answered && (e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n`);
      req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.wav"\r\nContent-Type: audio/wav\r\n\r\n`);
      const chunk = Buffer.alloc(1 << 20, 7);
      // four times the limit is offered: the answer comes long before that is sent
      const pump = () => {
        while (!answered && !req.destroyed && sent < 4 * LIMITS.fileBytes) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!answered && !req.destroyed) req.end(`\r\n--${boundary}--\r\n`);
      };
      pump();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error).toMatchObject({ code: 'limit_file_size', param: 'file' });
    expect(answer.sent).toBeLessThan(4 * LIMITS.fileBytes);
    expect(readdirSync(os.tmpdir()).filter((f) => !before.has(f) && /audio|multer|upload/i.test(f))).toEqual([]);
  });
});

describe('audio and credit budgets', () => {
  const ADMIN = 'sk-admin-audio-quota-01';
  let priced: TestGateway;
  beforeAll(async () => {
    priced = await startTestGateway({
      listen: false,
      env: { adminKey: ADMIN },
      config: withPricing(testConfigFile({ models: DEFAULT_CONFIG.models }), { 'sim-speech': { perMillionCharacters: 1_000_000 } }),
    });
  });
  afterAll(() => priced.stop());

  it('charges each speech call its characters and refuses every audio route once the account quota is spent', async () => {
    const admin = request(priced.app).put('/admin/accounts/beta/quota').set('Authorization', `Bearer ${ADMIN}`);
    expect((await admin.send({ credit_limit: 5 })).status).toBe(200);
    const call = () =>
      request(priced.app).post('/v1/audio/speech').set(beta).send({ model: 'tts-1', voice: 'alloy', input: 'abc', response_format: 'pcm' });
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    const refused = await call();
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('quota_exhausted');
    const transcription = await request(priced.app)
      .post('/v1/audio/transcriptions')
      .set(beta)
      .field('model', 'whisper-1')
      .attach('file', Buffer.from('RIFF0000WAVE'), 'a.wav');
    expect(transcription.status).toBe(429);
    const quota = await request(priced.app).get('/admin/accounts/beta/quota').set('Authorization', `Bearer ${ADMIN}`);
    expect(quota.body.credits_used).toBe(6);
  });
});
