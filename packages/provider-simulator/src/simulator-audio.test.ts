import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SpeechFormat, SpeechRequest, TranscriptionRequest } from '@gateway/core';
import { probeMedia } from './ffmpeg';
import { SimulatorSpeechModel } from './simulator-speech-model';
import { SimulatorTranscriptionModel } from './simulator-transcription-model';
import { SPEECH_SAMPLE_RATE, speechSeconds, synthesizeSpeech } from './speech-synth';
import { readWav, spokenTextOf, wavFile } from './wav-file';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sim-audio-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ctx = { signal: new AbortController().signal, requestId: 'req_test' };
const speech = new SimulatorSpeechModel();
const transcriber = new SimulatorTranscriptionModel();
const TEXT = 'Hello there. The quick brown fox jumps over the lazy dog!';

const speak = (format: SpeechFormat, over: Partial<SpeechRequest> = {}) =>
  speech.speak({ model: 'sim-speech', input: TEXT, voice: 'alloy', format, speed: 1, ...over }, ctx);

const transcribe = (data: Uint8Array, filename: string, over: Partial<TranscriptionRequest> = {}) =>
  transcriber.transcribe({ model: 'sim-transcribe', task: 'transcribe', audio: { data, filename }, ...over }, ctx);

describe('simulated speech', () => {
  it('is 24 kHz 16-bit mono PCM whose length grows with the text and shrinks with speed, the same each time', () => {
    const short = synthesizeSpeech('hi', 'alloy', 1);
    const long = synthesizeSpeech('hello world', 'alloy', 1);
    expect(long.length / 2 / SPEECH_SAMPLE_RATE).toBeCloseTo(speechSeconds('hello world', 1), 3);
    expect(long.length).toBeGreaterThan(short.length);
    expect(synthesizeSpeech('hello world', 'alloy', 2).length).toBe(long.length / 2);
    expect(synthesizeSpeech('hello world', 'alloy', 1).equals(long)).toBe(true);
    expect(synthesizeSpeech('hello world', 'echo', 1).equals(long)).toBe(false);
    expect(long.some((b) => b !== 0)).toBe(true);
  });

  it.each(['mp3', 'opus', 'aac', 'flac', 'wav'] as const)('%s: a real file ffmpeg reads, as long as the text', async (format) => {
    const { audio, mediaType } = await speak(format);
    expect(mediaType).toMatch(/^audio\//);
    const file = path.join(dir, `speech.${format}`);
    writeFileSync(file, audio);
    const info = await probeMedia(file);
    expect(info.audio?.codec).toBe({ mp3: 'mp3', opus: 'opus', aac: 'aac', flac: 'flac', wav: 'pcm_s16le' }[format]);
    // aac (ADTS) durations are ffmpeg's estimate from the bitrate
    if (format !== 'aac') expect(Math.abs(info.durationSeconds - speechSeconds(TEXT, 1))).toBeLessThan(0.15);
  });

  it('pcm has no header: exactly the samples', async () => {
    const { audio, mediaType } = await speak('pcm', { speed: 4 });
    expect(mediaType).toBe('audio/pcm');
    expect(audio.length).toBe(2 * Math.round((SPEECH_SAMPLE_RATE * 0.06) / 4) * [...TEXT].length);
  });

  it('streams the same bytes it answers whole, ending with a finish part', async () => {
    const parts = [];
    for await (const p of speech.stream!({ model: 'sim-speech', input: TEXT, voice: 'alloy', format: 'wav' }, ctx)) parts.push(p);
    expect(parts.at(-1)).toEqual({ type: 'finish', warnings: [] });
    const bytes = Buffer.concat(parts.flatMap((p) => (p.type === 'audio' ? [p.data] : [])));
    expect(bytes.equals(Buffer.from((await speak('wav')).audio))).toBe(true);
  });

  it('fails on [sim:fail]', async () => {
    await expect(speak('mp3', { input: 'please [sim:fail]' })).rejects.toMatchObject({ code: 'simulated_failure' });
  });
});

describe('simulated transcription', () => {
  it.each(['wav', 'mp3', 'opus', 'flac'] as const)('a %s file the simulator spoke transcribes back to its words', async (format) => {
    const { audio } = await speak(format);
    const result = await transcribe(audio, `speech.${format === 'opus' ? 'ogg' : format}`);
    expect(result.text).toBe(TEXT);
    expect(result.durationSeconds).toBeCloseTo(speechSeconds(TEXT, 1), 0);
  });

  it('times segments and words inside the duration, at sentence ends', async () => {
    const { audio } = await speak('wav');
    const r = await transcribe(audio, 'a.wav', { timestampGranularities: ['word', 'segment'] });
    expect(r.segments?.map((s) => s.text)).toEqual(['Hello there.', 'The quick brown fox jumps over the lazy dog!']);
    expect(r.words?.map((w) => w.word)).toEqual(TEXT.replace(/[.!]/g, '').split(' '));
    for (const t of [...r.segments!, ...r.words!]) {
      expect(t.start).toBeGreaterThanOrEqual(0);
      expect(t.end).toBeGreaterThan(t.start);
      expect(t.end).toBeLessThanOrEqual(r.durationSeconds!);
    }
    expect(r.segments!.at(-1)!.end).toBeCloseTo(r.durationSeconds!, 2);
  });

  it('other audio gets a deterministic text as long as the audio, from its bytes', async () => {
    const tone = wavFile(synthesizeSpeech('x'.repeat(100), 'echo', 1), SPEECH_SAMPLE_RATE);
    expect(readWav(tone)).toMatchObject({ sampleRate: 24000, channels: 1, bitsPerSample: 16, durationSeconds: 6 });
    const a = await transcribe(tone, 'tone.wav', { timestampGranularities: ['segment'] });
    const b = await transcribe(tone, 'tone.wav');
    expect(a.text).toBe(b.text);
    expect(a.text.split(' ')).toHaveLength(15);
    expect(a.segments!.at(-1)!.end).toBeLessThanOrEqual(6);
    const other = await transcribe(wavFile(synthesizeSpeech('y'.repeat(100), 'echo', 1), SPEECH_SAMPLE_RATE), 'other.wav');
    expect(other.text).not.toBe(a.text);
  });

  it('refuses bytes that are not audio, naming the file', async () => {
    await expect(transcribe(Buffer.from('not audio at all'), 'a.mp3')).rejects.toMatchObject({
      param: 'file',
      code: 'invalid_file_format',
    });
  });

  it('translation answers in English', async () => {
    const { audio } = await speak('mp3');
    expect(await transcribe(audio, 'a.mp3', { task: 'translate', language: 'de' })).toMatchObject({ text: TEXT, language: 'english' });
  });

  it('a comment that is not the simulator`s is no spoken text', () => {
    expect(spokenTextOf('recorded by me')).toBeUndefined();
    expect(spokenTextOf(undefined)).toBeUndefined();
  });
});
