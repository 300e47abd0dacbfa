import { describeChatFailure, TranscriptionsModel, UpstreamClient, WHISPER_DIALECT } from '@gateway/provider-kit';
import { startFakeWhisperServer, type FakeWhisperServer } from '@gateway/provider-openai-compatible/testing';

let fake: FakeWhisperServer;
let http: UpstreamClient;
const ctx = { signal: new AbortController().signal, requestId: 'req_1' };
const audio = { data: Buffer.from('fLaC0123456789'), filename: 'note.flac' };

beforeAll(async () => {
  fake = await startFakeWhisperServer();
  http = new UpstreamClient({ baseUrl: fake.url, describeFailure: describeChatFailure });
});
afterAll(async () => {
  http.destroy();
  await fake.close();
});

describe('transcription on an OpenAI-compatible whisper server', () => {
  it('plain text is asked as json, never forced into verbose_json', async () => {
    const model = new TranscriptionsModel(http, WHISPER_DIALECT);
    const r = await model.transcribe({ model: 'Systran/faster-whisper-small', task: 'transcribe', audio }, ctx);
    expect(r).toMatchObject({ text: 'Whisper heard 14 bytes.', warnings: [] });
    expect(r.durationSeconds).toBeUndefined();
    expect((await fake.forms()).at(-1)).toMatchObject({ response_format: 'json', file: { name: 'note.flac', size: 14 } });
  });

  it('timing is asked as verbose_json; nulls where the server has no words are no words', async () => {
    const model = new TranscriptionsModel(http, WHISPER_DIALECT);
    const r = await model.transcribe({ model: 'whisper', task: 'translate', audio, timestampGranularities: ['segment'] }, ctx);
    expect(r).toMatchObject({ durationSeconds: 2.4, segments: [{ start: 0, end: 2.4, text: 'Whisper heard 14 bytes.' }] });
    expect(r.words).toBeUndefined();
    expect(fake.api.requests.at(-1)!.path).toBe('/v1/audio/translations');
  });

  it('the stream of a server without one is its answer as one delta', async () => {
    const parts = [];
    for await (const p of new TranscriptionsModel(http, WHISPER_DIALECT).stream({ model: 'whisper', task: 'transcribe', audio }, ctx))
      parts.push(p);
    expect(parts.map((p) => p.type)).toEqual(['text-delta', 'finish']);
    expect((await fake.forms()).at(-1)).not.toHaveProperty('stream');
  });
});
