import http from 'node:http';
import request from 'supertest';
import { eventually } from '@gateway/testkit';
import { fakeSpeechBytes, HOLD_SPEECH, startFakeOpenAiAudio, type FakeOpenAiAudio } from '@gateway/provider-openai/testing';
import { startFakeWhisperServer, type FakeWhisperServer } from '@gateway/provider-openai-compatible/testing';
import { DEFAULT_CONFIG } from '../src/default-config';
import { binaryBody } from './support/binary-body';
import { BETA_KEY, startTestGateway, testConfigFile, type TestGateway } from './support/test-gateway';

/** Speech and transcription through the real adapters against fake upstreams, and failover between them. */
let gw: TestGateway;
let oai: FakeOpenAiAudio;
let whisper: FakeWhisperServer;

beforeAll(async () => {
  [oai, whisper] = await Promise.all([startFakeOpenAiAudio(), startFakeWhisperServer()]);
  gw = await startTestGateway({
    config: testConfigFile({
      providers: [
        { id: 'sim', type: 'simulator' },
        { id: 'oai', type: 'openai', baseUrl: oai.url, apiKey: oai.apiKey },
        { id: 'local', type: 'openai-compatible', baseUrl: whisper.url },
      ],
      models: [
        ...DEFAULT_CONFIG.models,
        { id: 'openai-tts', kind: 'speech', provider: 'oai', upstreamModel: 'gpt-4o-mini-tts' },
        { id: 'openai-tts-1', kind: 'speech', provider: 'oai', upstreamModel: 'tts-1' },
        { id: 'openai-whisper', kind: 'transcription', provider: 'oai', upstreamModel: 'whisper-1' },
        { id: 'openai-4o-transcribe', kind: 'transcription', provider: 'oai', upstreamModel: 'gpt-4o-transcribe' },
        { id: 'local-whisper', kind: 'transcription', provider: 'local', upstreamModel: 'Systran/faster-whisper-small' },
        {
          id: 'failover-whisper',
          kind: 'transcription',
          deployments: [
            { provider: 'oai', upstreamModel: 'whisper-1', priority: 0 },
            { provider: 'local', upstreamModel: 'whisper', priority: 1 },
          ],
        },
      ],
    }),
  });
});
afterAll(async () => {
  await gw.stop();
  await Promise.all([oai.close(), whisper.close()]);
});

const beta = { Authorization: `Bearer ${BETA_KEY}` };
const speak = (body: Record<string, unknown>) =>
  binaryBody(
    request(gw.app)
      .post('/v1/audio/speech')
      .set(beta)
      .send({ voice: 'alloy', input: 'Hello there', ...body }),
  );
const transcribe = (model: string, fields: Record<string, string> = {}, route = 'transcriptions') => {
  const req = request(gw.app).post(`/v1/audio/${route}`).set(beta).field('model', model);
  for (const [k, v] of Object.entries(fields)) req.field(k, v);
  return req.attach('file', Buffer.from('RIFF-not-really-audio'), 'clip.wav');
};

describe('speech on OpenAI', () => {
  it('passes the request through and answers the audio in the requested format', async () => {
    const res = await speak({
      model: 'openai-tts',
      response_format: 'flac',
      instructions: 'cheerful',
      speed: 1.25,
      voice: { id: 'voice_123' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('audio/flac');
    expect((res.body as Buffer).equals(fakeSpeechBytes('flac', 'Hello there'))).toBe(true);
    expect(oai.speechBodies().at(-1)).toEqual({
      model: 'gpt-4o-mini-tts',
      input: 'Hello there',
      voice: { id: 'voice_123' },
      instructions: 'cheerful',
      response_format: 'flac',
      speed: 1.25,
    });
  });

  it('sse from tts-1 (which has none): the gateway makes the events; instructions dropped with a warning', async () => {
    const res = await request(gw.app)
      .post('/v1/audio/speech')
      .set(beta)
      .send({ model: 'openai-tts-1', voice: 'alloy', input: 'Hello there', instructions: 'slow', stream_format: 'sse' });
    expect(res.status).toBe(200);
    const audio = res.text
      .split('\n\n')
      .filter((b) => b.includes('speech.audio.delta'))
      .map((b) => Buffer.from(JSON.parse(/^data: (.*)$/m.exec(b)![1]!).audio, 'base64'));
    expect(Buffer.concat(audio).equals(fakeSpeechBytes('mp3', 'Hello there'))).toBe(true);
    expect(res.text).toContain('speech.audio.done');
    expect(res.headers['x-gateway-warnings']).toMatch(/instructions/);
    const audioAnswer = await speak({ model: 'openai-tts-1', instructions: 'slow' });
    expect(audioAnswer.headers['content-type']).toBe('audio/mpeg');
    expect(audioAnswer.headers['x-gateway-warnings']).toMatch(/instructions/);
    expect(oai.speechBodies().at(-1)).toEqual({ model: 'tts-1', input: 'Hello there', voice: 'alloy', response_format: 'mp3' });
  });
});

describe('a caller that leaves', () => {
  it('mid-audio closes the upstream connection too', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        `${gw.url}/v1/audio/speech`,
        { method: 'POST', headers: { ...beta, 'content-type': 'application/json' } },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.once('data', () => {
            req.destroy();
            resolve();
          });
        },
      );
      req.on('error', (e) => ((e as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(e)));
      req.end(JSON.stringify({ model: 'openai-tts', voice: 'alloy', input: `${HOLD_SPEECH} a long story` }));
    });
    await eventually(() => oai.abandoned() === 1);
  });
});

describe('transcription across upstreams', () => {
  it('OpenAI whisper-1: json asked as json; srt built from verbose_json segments', async () => {
    const json = await transcribe('openai-whisper');
    expect(json.body).toEqual({ text: expect.stringContaining('Heard clip.wav'), usage: { type: 'duration', seconds: 4 } });
    expect((await oai.forms()).at(-1)).toMatchObject({ model: 'whisper-1', response_format: 'json' });
    const srt = await transcribe('openai-whisper', { response_format: 'srt' });
    expect(srt.headers['content-type']).toMatch(/^text\/plain/);
    expect(srt.text).toMatch(/^1\n00:00:00,000 --> 00:00:01,500\nHeard clip\.wav of 21 bytes\n\n2\n00:00:01,500 --> 00:00:03,500\n/);
    expect((await oai.forms()).at(-1)).toMatchObject({ response_format: 'verbose_json', timestamp_granularities: ['segment'] });
  });

  it('gpt-4o-transcribe: srt without timing from the upstream is one cue, with a warning; stream passes its deltas', async () => {
    const srt = await transcribe('openai-4o-transcribe', { response_format: 'srt' });
    expect(srt.status).toBe(200);
    expect(srt.headers['x-gateway-warnings']).toMatch(/timestamp_granularities/);
    expect(srt.text).toMatch(/^1\n00:00:00,000 --> 00:00:00,000\nHeard clip\.wav/);
    const stream = await transcribe('openai-4o-transcribe', { stream: 'true' });
    expect(stream.text.match(/transcript\.text\.delta/g)!.length).toBeGreaterThan(3);
    expect(stream.text).toContain('"type":"tokens"');
  });

  it('an OpenAI-compatible whisper server is never forced into verbose_json for json', async () => {
    const res = await transcribe('local-whisper');
    expect(res.body).toEqual({ text: 'Whisper heard 21 bytes.' });
    expect((await whisper.forms()).at(-1)).toMatchObject({ response_format: 'json' });
    await gw.usage.flush();
    const row = await gw.db.knex('usage_log').where({ request_id: res.headers['x-request-id'] }).first();
    expect(row).toMatchObject({ model: 'local-whisper', estimated: true });
  });

  it('fails over from an unavailable deployment to the next, for translations too', async () => {
    oai.api.failNext('create', 1, { status: 503 });
    const res = await transcribe('failover-whisper', { response_format: 'verbose_json' }, 'translations');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ task: 'translate', duration: 2.4, text: 'Whisper heard 21 bytes.' });
  });
});
