import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI, { toFile } from 'openai';
import { probeMedia } from '@gateway/provider-simulator';
import type { TestGateway } from '../support/test-gateway';
import { COMPAT_KEY, startZeroConfigGateway } from './zero-config-gateway';

// ai 7 and @ai-sdk/openai are ESM only: loaded with import(), which this folder's tsconfig keeps (jest.config.ts).
let ai: typeof import('ai');
let provider: ReturnType<typeof import('@ai-sdk/openai').createOpenAI>;
let openai: OpenAI;
let gw: TestGateway;
let dir: string;

beforeAll(async () => {
  ai = await import('ai');
  const { createOpenAI } = await import('@ai-sdk/openai');
  gw = await startZeroConfigGateway();
  provider = createOpenAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1` });
  openai = new OpenAI({ apiKey: COMPAT_KEY, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  dir = mkdtempSync(path.join(os.tmpdir(), 'audio-compat-'));
});
afterAll(async () => {
  await gw.stop();
  rmSync(dir, { recursive: true, force: true });
});

const TEXT = 'Good morning. The gateway speaks and listens.';

describe('openai SDK audio', () => {
  it.each(['mp3', 'opus', 'aac', 'flac', 'wav'] as const)('audio.speech.create (%s) gives a file ffmpeg reads', async (format) => {
    const res = await openai.audio.speech.create({ model: 'gpt-4o-mini-tts', voice: 'coral', input: TEXT, response_format: format });
    const file = path.join(dir, `speech.${format}`);
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const info = await probeMedia(file);
    expect(info.audio).toBeDefined();
    if (format !== 'aac') expect(info.durationSeconds).toBeCloseTo([...TEXT].length * 0.06, 0);
  });

  it('audio.transcriptions.create reads back what audio.speech.create said, in json, verbose_json and srt', async () => {
    const speech = await openai.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: TEXT });
    const file = await toFile(Buffer.from(await speech.arrayBuffer()), 'speech.mp3', { type: 'audio/mpeg' });
    const json = await openai.audio.transcriptions.create({ model: 'whisper-1', file });
    expect(json.text).toBe(TEXT);
    const verbose = await openai.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(
        Buffer.from(
          await (await openai.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: TEXT, response_format: 'wav' })).arrayBuffer(),
        ),
        'speech.wav',
      ),
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
    });
    expect(verbose.duration).toBeCloseTo([...TEXT].length * 0.06, 2);
    expect(verbose.words?.map((w) => w.word)).toEqual(['Good', 'morning', 'The', 'gateway', 'speaks', 'and', 'listens']);
    expect(verbose.segments?.map((s) => s.text)).toEqual(['Good morning.', 'The gateway speaks and listens.']);
    const srt = await openai.audio.transcriptions.create({ model: 'whisper-1', file, response_format: 'srt' });
    // an mp3 is a little longer than its samples (encoder padding): the cues fall in its own length
    expect(srt).toMatch(
      /^1\n00:00:00,000 --> 00:00:00,[78]\d\d\nGood morning\.\n\n2\n00:00:00,\d{3} --> 00:00:02,\d{3}\nThe gateway speaks and listens\.\n\n$/,
    );
  });

  it('audio.transcriptions.create with stream: true yields the deltas and the done event', async () => {
    const speech = await openai.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: TEXT, response_format: 'flac' });
    const stream = await openai.audio.transcriptions.create({
      model: 'gpt-4o-mini-transcribe',
      file: await toFile(Buffer.from(await speech.arrayBuffer()), 'speech.flac'),
      stream: true,
    });
    const seen: string[] = [];
    let done = '';
    for await (const e of stream) {
      if (e.type === 'transcript.text.delta') seen.push(e.delta);
      if (e.type === 'transcript.text.done') done = e.text;
    }
    expect(seen.join('')).toBe(TEXT);
    expect(done).toBe(TEXT);
  });

  it('audio.translations.create answers English text', async () => {
    const speech = await openai.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: TEXT, response_format: 'opus' });
    const res = await openai.audio.translations.create({
      model: 'whisper-1',
      file: await toFile(Buffer.from(await speech.arrayBuffer()), 'speech.ogg'),
    });
    expect(res.text).toBe(TEXT);
  });

  it("an oversized input is the SDK's BadRequestError naming the field", async () => {
    const err = await openai.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x'.repeat(4097) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('input');
  });
});

describe('AI SDK generateSpeech and transcribe with @ai-sdk/openai', () => {
  it('generateSpeech speaks, and transcribe hears the same words with timed segments', async () => {
    const speech = await ai.generateSpeech({ model: provider.speech('tts-1'), text: TEXT, outputFormat: 'wav', maxRetries: 0 });
    expect(speech.audio.mediaType).toBe('audio/wav');
    expect(speech.audio.uint8Array.length).toBeGreaterThan(1000);
    const heard = await ai.transcribe({ model: provider.transcription('whisper-1'), audio: speech.audio.uint8Array, maxRetries: 0 });
    expect(heard.text).toBe(TEXT);
    expect(heard.durationInSeconds).toBeCloseTo([...TEXT].length * 0.06, 2);
    expect(heard.segments.map((s) => s.text)).toEqual(['Good morning.', 'The gateway speaks and listens.']);
  });

  it('transcribe with gpt-4o-mini-transcribe (json) gets the text', async () => {
    const speech = await ai.generateSpeech({ model: provider.speech('gpt-4o-mini-tts'), text: TEXT, maxRetries: 0 });
    const heard = await ai.transcribe({
      model: provider.transcription('gpt-4o-mini-transcribe'),
      audio: speech.audio.uint8Array,
      maxRetries: 0,
    });
    expect(heard.text).toBe(TEXT);
  });
});
