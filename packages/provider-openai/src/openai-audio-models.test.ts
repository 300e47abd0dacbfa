import { UpstreamClient, TranscriptionsModel, type TranscriptionRequest } from '@gateway/provider-kit';
import { fakeSpeechBytes, startFakeOpenAiAudio, type FakeOpenAiAudio } from '@gateway/provider-openai/testing';
import { OPENAI_REQUEST_ID_HEADERS } from './openai-api';
import { describeOpenAiFailure } from './openai-error';
import { OpenAiSpeechModel } from './openai-speech-model';
import { OPENAI_TRANSCRIPTION_DIALECT } from './openai-transcription-dialect';

let fake: FakeOpenAiAudio;
let http: UpstreamClient;
const ctx = { signal: new AbortController().signal, requestId: 'req_1' };

beforeAll(async () => {
  fake = await startFakeOpenAiAudio();
  http = new UpstreamClient({
    baseUrl: fake.url,
    headers: { authorization: `Bearer ${fake.apiKey}` },
    requestIdHeaders: OPENAI_REQUEST_ID_HEADERS,
    describeFailure: describeOpenAiFailure,
  });
});
afterAll(async () => {
  http.destroy();
  await fake.close();
});

describe('OpenAiSpeechModel', () => {
  const speech = () => new OpenAiSpeechModel(http);

  it('sends the request as OpenAI takes it and answers the audio in the requested format', async () => {
    const r = await speech().speak(
      { model: 'gpt-4o-mini-tts', input: 'Hi there', voice: 'coral', instructions: 'calm', format: 'wav', speed: 1.5 },
      ctx,
    );
    expect(Buffer.from(r.audio).equals(fakeSpeechBytes('wav', 'Hi there'))).toBe(true);
    expect(r).toMatchObject({ mediaType: 'audio/wav', warnings: [], upstreamRequestId: 'req_fake_speech' });
    expect(fake.speechBodies().at(-1)).toEqual({
      model: 'gpt-4o-mini-tts',
      input: 'Hi there',
      voice: 'coral',
      instructions: 'calm',
      response_format: 'wav',
      speed: 1.5,
    });
  });

  it('streams the audio as it arrives; tts-1 gets no instructions, with a warning', async () => {
    const parts = [];
    for await (const p of speech().stream!(
      { model: 'tts-1', input: 'Hello', voice: 'alloy', instructions: 'whisper', format: 'opus' },
      ctx,
    ))
      parts.push(p);
    const audio = Buffer.concat(parts.flatMap((p) => (p.type === 'audio' ? [p.data] : [])));
    expect(audio.equals(fakeSpeechBytes('opus', 'Hello'))).toBe(true);
    expect(parts[0]).toMatchObject({ type: 'warnings', warnings: [{ type: 'unsupported-setting', setting: 'instructions' }] });
    expect(parts.at(-1)).toMatchObject({ type: 'finish', warnings: [{ type: 'unsupported-setting', setting: 'instructions' }] });
    expect(fake.speechBodies().at(-1)).not.toHaveProperty('instructions');
  });

  it("an upstream refusal is the caller's invalid request", async () => {
    await expect(speech().speak({ model: 'tts-1', input: 'x'.repeat(5000), voice: 'alloy', format: 'mp3' }, ctx)).rejects.toMatchObject({
      reason: 'invalid_request',
    });
  });
});

describe('TranscriptionsModel (OpenAI dialect)', () => {
  const model = () => new TranscriptionsModel(http, OPENAI_TRANSCRIPTION_DIALECT);
  const audio = { data: Buffer.from('RIFF....WAVE'), filename: 'clip.wav', mediaType: 'audio/wav' };
  const req = (over: Partial<TranscriptionRequest> = {}): TranscriptionRequest => ({
    model: 'whisper-1',
    task: 'transcribe',
    audio,
    ...over,
  });

  it('asks for json when no timing is needed and reads text, duration billed and request id', async () => {
    const r = await model().transcribe(req({ language: 'en', prompt: 'names', temperature: 0.2 }), ctx);
    expect(r).toMatchObject({
      text: expect.stringContaining('Heard clip.wav of 12 bytes'),
      durationSeconds: 4,
      upstreamRequestId: 'req_fake_transcription',
    });
    expect((await fake.forms()).at(-1)).toMatchObject({
      model: 'whisper-1',
      response_format: 'json',
      language: 'en',
      prompt: 'names',
      temperature: '0.2',
      file: { name: 'clip.wav', type: 'audio/wav', size: 12 },
    });
  });

  it('asks for verbose_json with the granularities when timing is needed', async () => {
    const r = await model().transcribe(req({ timestampGranularities: ['word', 'segment'] }), ctx);
    expect(r.segments).toHaveLength(2);
    expect(r.words?.length).toBeGreaterThan(3);
    expect(r.durationSeconds).toBe(3.5);
    expect((await fake.forms()).at(-1)).toMatchObject({ response_format: 'verbose_json', timestamp_granularities: ['word', 'segment'] });
  });

  it('gpt-4o-transcribe gets json (with a warning) rather than a format it refuses, and streams its text', async () => {
    const r = await model().transcribe(req({ model: 'gpt-4o-transcribe', timestampGranularities: ['segment'] }), ctx);
    expect(r.warnings).toEqual([expect.objectContaining({ setting: 'timestamp_granularities' })]);
    expect(r.usage).toEqual({ inputTokens: 40, outputTokens: 12 });
    const parts = [];
    for await (const p of model().stream(req({ model: 'gpt-4o-mini-transcribe' }), ctx)) parts.push(p);
    expect(parts.filter((p) => p.type === 'text-delta').length).toBeGreaterThan(3);
    const end = parts.at(-1)!;
    expect(end.type === 'finish' && end.result.text).toBe(parts.flatMap((p) => (p.type === 'text-delta' ? [p.delta] : [])).join(''));
  });

  it('whisper-1 is not asked to stream: its one answer is one delta', async () => {
    const parts = [];
    for await (const p of model().stream(req(), ctx)) parts.push(p);
    expect(parts.map((p) => p.type)).toEqual(['text-delta', 'finish']);
    expect((await fake.forms()).at(-1)).not.toHaveProperty('stream');
  });

  it('translations go to /audio/translations without a language', async () => {
    const r = await model().transcribe(req({ task: 'translate', language: 'de' }), ctx);
    expect(r.text).toContain('In English');
    expect((await fake.forms()).at(-1)).not.toHaveProperty('language');
    expect(fake.api.requests.at(-1)!.path).toBe('/v1/audio/translations');
  });
});
